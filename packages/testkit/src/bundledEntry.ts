import { build, type Plugin } from "esbuild"
import { mkdirSync } from "node:fs"
import { readFile } from "node:fs/promises"
import { dirname, join, resolve } from "node:path"
import { pathToFileURL } from "node:url"

/**
 * Packages left to Node at run time: PGlite reads its WebAssembly and extensions beside its own
 * module, and optional native addons may be absent. Everything else is bundled.
 */
const EXTERNAL = /^(@electric-sql\/pglite|pg-native|bufferutil|utf-8-validate)(\/|$)/

/** A bundled module's `import.meta.url` and `dirname` must still name its source file, not the bundle. */
const sourceLocations: Plugin = {
  name: "source-locations",
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) => (EXTERNAL.test(args.path) ? { external: true } : undefined))
    builder.onLoad({ filter: /\.(ts|mts|js|mjs)$/ }, async (args) => {
      const text = await readFile(args.path, "utf8")
      if (!text.includes("import.meta.")) return undefined
      const contents = text
        .replaceAll("import.meta.url", JSON.stringify(pathToFileURL(args.path).href))
        .replaceAll("import.meta.dirname", JSON.stringify(dirname(args.path)))
        .replaceAll("import.meta.filename", JSON.stringify(args.path))
      return { contents, loader: args.path.endsWith("ts") ? "ts" : "js" }
    })
  }
}

const bundles = new Map<string, Promise<string>>()

/**
 * A process-started test runs its entry (`apps/x/src/main.ts`) as one bundled module instead of
 * through tsx: the same source, loaded in well under a second instead of several (tsx resolves and
 * transforms each of a few thousand modules at every start). Built once per test worker and entry,
 * into `node_modules/.cache` so that the packages left out of it resolve from the repository.
 */
export const bundledEntry = (cwd: string, entry: string): Promise<string> => {
  const source = resolve(cwd, entry)
  const known = bundles.get(source)
  if (known !== undefined) return known
  const directory = join(cwd, "node_modules", ".cache", "test-bundles")
  const outfile = join(directory, `${entry.replace(/[^A-Za-z0-9]+/g, "-")}.${process.pid}.mjs`)
  const built = Promise.resolve().then(async () => {
    mkdirSync(directory, { recursive: true })
    await build({
      entryPoints: [source],
      outfile,
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      logLevel: "error",
      plugins: [sourceLocations],
      // Bundled CommonJS packages call require(), which an ES module does not have.
      banner: { js: "import { createRequire as __createRequire } from \"node:module\"; const require = __createRequire(import.meta.url);" }
    })
    return outfile
  })
  bundles.set(source, built)
  built.catch(() => bundles.delete(source))
  return built
}
