import type { Extracted } from "@platform/sandbox"
import { Effect, Either, Schema } from "effect"
import { createHash } from "node:crypto"
import { readFile } from "node:fs/promises"
import { join } from "node:path"
import { PackageManifestInvalid } from "./errors.ts"
import type { InstallScript } from "./Package.ts"

/** The file at a package's root that says how to run it. */
export const MANIFEST_FILE = "app.json"
const MAX_MANIFEST_BYTES = 16 * 1024

/**
 * `app.json`: `{"command": "bin/tool", "install_script": "install.sh"}`. `command` is the package's program,
 * relative to its root, an executable file of the package; `install_script` (optional, or null) a file of the
 * package the client runs after unpacking it. No other members.
 */
const ManifestJson = Schema.parseJson(Schema.Struct({
  command: Schema.String,
  install_script: Schema.optional(Schema.NullOr(Schema.String))
}))
const decodeManifest = Schema.decodeUnknownEither(ManifestJson, { onExcessProperty: "error", errors: "first" })

export interface Manifest {
  readonly command: string
  readonly installScript: InstallScript | null
}

export const sha256OfBytes = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex")

const invalid = (problem: string) =>
  new PackageManifestInvalid({
    message: `The package's ${MANIFEST_FILE} is not usable: ${problem}`,
    hint: `Put ${MANIFEST_FILE} at the root of the archive: {"command": "bin/your-tool", "install_script": "install.sh" (optional)}.`,
    details: { problem }
  })

const normalised = (path: string) => path.split("/").filter((part) => part !== "" && part !== ".").join("/")

/** The manifest of an unpacked package, its command and install script checked against the package's files. */
export const readManifest = (extracted: Extracted): Effect.Effect<Manifest, PackageManifestInvalid> =>
  Effect.gen(function*() {
    const files = new Map(extracted.files.map((file) => [file.path, file]))
    const manifestFile = files.get(MANIFEST_FILE)
    if (manifestFile === undefined) return yield* invalid(`there is no ${MANIFEST_FILE} at the package's root.`)
    if (manifestFile.size > MAX_MANIFEST_BYTES) return yield* invalid(`${MANIFEST_FILE} is larger than ${MAX_MANIFEST_BYTES} bytes.`)
    const text = yield* Effect.promise(() => readFile(join(extracted.directory, MANIFEST_FILE), "utf8"))
    const decoded = decodeManifest(text)
    if (Either.isLeft(decoded)) {
      return yield* invalid(`${MANIFEST_FILE} must be a JSON object with a string "command" and an optional "install_script" only.`)
    }
    const command = normalised(decoded.right.command)
    const program = files.get(command)
    if (program === undefined) return yield* invalid(`the command ${JSON.stringify(decoded.right.command)} is not a file of the package.`)
    if (!program.executable) return yield* invalid(`the command ${JSON.stringify(decoded.right.command)} is not executable.`)
    const scriptPath = decoded.right.install_script
    if (scriptPath === undefined || scriptPath === null) return { command, installScript: null }
    const script = files.get(normalised(scriptPath))
    if (script === undefined) return yield* invalid(`the install script ${JSON.stringify(scriptPath)} is not a file of the package.`)
    const bytes = yield* Effect.promise(() => readFile(join(extracted.directory, script.path)))
    return { command, installScript: { path: script.path, sha256: sha256OfBytes(bytes), size: script.size } }
  })
