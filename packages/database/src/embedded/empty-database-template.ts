import { PGlite } from "@electric-sql/pglite"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import * as fs from "node:fs"
import { createRequire } from "node:module"
import * as path from "node:path"
import { DatabaseError, describeCause } from "../database-error.ts"

/**
 * The files of a freshly initialised PGlite, as a tarball for `new PGlite({ loadDataDir })`.
 * initdb is most of the ~3 s a new PGlite costs; loading this takes ~0.5 s, which matters
 * when every test file makes its own database. Cached in `node_modules/.cache` (per PGlite
 * version) by whichever process needs it first; without a writable cache it is made each time.
 */
export const emptyDatabaseTemplate: Effect.Effect<Blob, DatabaseError> = Effect.tryPromise({
  try: async () => {
    const file = cacheFile()
    const cached = file === undefined ? undefined : readCache(file)
    if (cached !== undefined) return cached
    const db = new PGlite()
    const template = await db.waitReady.then(() => db.dumpDataDir("none")).finally(() => db.close())
    if (file !== undefined) await writeCache(file, template)
    return template
  },
  catch: (cause) =>
    new DatabaseError({ message: `could not prepare an empty PGlite database: ${describeCause(cause)}`, cause })
})

const cacheFile = (): string | undefined => {
  try {
    const pglite = path.dirname(path.dirname(createRequire(import.meta.url).resolve("@electric-sql/pglite")))
    const manifest: unknown = JSON.parse(fs.readFileSync(path.join(pglite, "package.json"), "utf8"))
    if (typeof manifest !== "object" || manifest === null || !("version" in manifest)) return undefined
    const nodeModules = path.resolve(pglite, "..", "..")
    return path.join(nodeModules, ".cache", "platform-database", `pglite-${String(manifest.version)}-empty.tar`)
  } catch {
    return undefined
  }
}

const readCache = (file: string): Blob | undefined => {
  try {
    return new Blob([fs.readFileSync(file)])
  } catch {
    return undefined
  }
}

const writeCache = async (file: string, template: Blob): Promise<void> => {
  // Written aside then renamed, so that a process reading it never sees half of it.
  const partial = `${file}.${randomUUID()}`
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true })
    fs.writeFileSync(partial, new Uint8Array(await template.arrayBuffer()))
    fs.renameSync(partial, file)
  } catch {
    fs.rmSync(partial, { force: true })
  }
}
