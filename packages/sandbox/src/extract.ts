import { Effect, type Scope } from "effect"
import { chmod, mkdir, mkdtemp, open, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { gunzip } from "node:zlib"
import { extract, type Header } from "tar-stream"
import { checkEntryName } from "./entryName.ts"
import { UnsafeArchive, type UnsafeReason } from "./errors.ts"

export interface ExtractLimits {
  /** Entries of any kind, directories included (default 1,000). */
  readonly maxEntries: number
  /** One file's size (default 32 MiB). */
  readonly maxFileBytes: number
  /** All files together (default 64 MiB). */
  readonly maxTotalBytes: number
}

export const DEFAULT_EXTRACT_LIMITS: ExtractLimits = {
  maxEntries: 1000,
  maxFileBytes: 32 * 1024 * 1024,
  maxTotalBytes: 64 * 1024 * 1024
}

export interface ExtractedFile {
  /** Relative to the directory, with `/` between its parts. */
  readonly path: string
  readonly size: number
  readonly executable: boolean
}

export interface Extracted {
  /** The fresh directory the archive was unpacked into. */
  readonly directory: string
  readonly entries: number
  readonly totalBytes: number
  readonly files: ReadonlyArray<ExtractedFile>
}

const gunzipAsync = promisify(gunzip)

/** Headers and padding a tar stream may add to its files' bytes (512 per header, pax records, the end blocks). */
const tarOverhead = (limits: ExtractLimits) => (limits.maxEntries + 4) * 3 * 512

/** Thrown inside the unpacking to stop at the first refusal; turned into the typed error at the edge. */
class Refusal extends Error {
  constructor(readonly reason: UnsafeReason, readonly entry: string | null, message: string, readonly limit?: number) {
    super(message)
  }
}

function refuse(reason: UnsafeReason, entry: string | null, message: string, limit?: number): never {
  throw new Refusal(reason, entry, message, limit)
}

const REFUSED_TYPES: Partial<Record<string, { reason: UnsafeReason; what: string }>> = {
  symlink: { reason: "symlink", what: "a symbolic link" },
  link: { reason: "hard_link", what: "a hard link" },
  "character-device": { reason: "device", what: "a character device" },
  "block-device": { reason: "device", what: "a block device" },
  fifo: { reason: "fifo", what: "a FIFO" }
}

const inflate = async (gzipped: Uint8Array, limits: ExtractLimits): Promise<Buffer> => {
  const maxOutputLength = limits.maxTotalBytes + tarOverhead(limits)
  try {
    return await gunzipAsync(gzipped, { maxOutputLength })
  } catch (error) {
    const code = (error as { code?: string }).code
    return code === "ERR_BUFFER_TOO_LARGE"
      ? refuse("total_too_large", null, `The archive unpacks to more than ${limits.maxTotalBytes} bytes.`, limits.maxTotalBytes)
      : refuse("not_gzip_tar", null, "The body is not a gzip-compressed tar archive.")
  }
}

const unpack = async (gzipped: Uint8Array, directory: string, limits: ExtractLimits): Promise<Extracted> => {
  const tarBytes = await inflate(gzipped, limits)
  const tar = extract()
  tar.end(tarBytes)
  const files: Array<ExtractedFile> = []
  const seen = new Set<string>()
  let entries = 0
  let totalBytes = 0
  try {
    for await (const entry of tar) {
      const header: Header = entry.header
      entries += 1
      if (entries > limits.maxEntries) {
        refuse("too_many_entries", header.name, `The archive has more than ${limits.maxEntries} entries.`, limits.maxEntries)
      }
      const name = checkEntryName(header.name)
      if (name._tag === "Refused") refuse(name.reason, header.name, `Entry ${JSON.stringify(header.name)} ${name.why}.`)
      const refusedType = REFUSED_TYPES[header.type ?? ""]
      if (refusedType !== undefined) {
        refuse(refusedType.reason, header.name, `Entry ${JSON.stringify(header.name)} is ${refusedType.what}; packages hold only files and directories.`)
      }
      if (name._tag === "Root") {
        entry.resume()
        continue
      }
      const path = name.segments.join("/")
      const target = join(directory, ...name.segments)
      if (header.type === "directory") {
        await mkdir(target, { recursive: true, mode: 0o755 })
        await chmod(target, 0o755)
        entry.resume()
        continue
      }
      if (header.type !== "file" && header.type !== "contiguous-file") {
        refuse("unsupported_type", header.name, `Entry ${JSON.stringify(header.name)} is of a kind packages cannot hold (${String(header.type)}).`)
      }
      if (seen.has(path)) refuse("duplicate_entry", header.name, `Entry ${JSON.stringify(header.name)} appears twice.`)
      seen.add(path)
      if (header.size > limits.maxFileBytes) {
        refuse("file_too_large", header.name, `Entry ${JSON.stringify(header.name)} is larger than ${limits.maxFileBytes} bytes.`, limits.maxFileBytes)
      }
      if (totalBytes + header.size > limits.maxTotalBytes) {
        refuse("total_too_large", header.name, `The archive's files add up to more than ${limits.maxTotalBytes} bytes.`, limits.maxTotalBytes)
      }
      totalBytes += header.size
      const executable = (header.mode & 0o111) !== 0
      if (name.segments.length > 1) await mkdir(join(directory, ...name.segments.slice(0, -1)), { recursive: true, mode: 0o755 })
      // `wx`: never through something already there (a duplicate, or a file where a directory was made).
      const file = await open(target, "wx", 0o600)
      try {
        for await (const chunk of entry) await file.write(chunk as Buffer)
        await file.chmod(executable ? 0o755 : 0o644)
      } finally {
        await file.close()
      }
      files.push({ path, size: header.size, executable })
    }
  } catch (error) {
    tar.destroy()
    if (error instanceof Refusal) throw error
    const code = (error as { code?: string }).code
    if (code === "EEXIST" || code === "ENOTDIR" || code === "EISDIR") {
      refuse("duplicate_entry", null, "The archive names the same path twice (as a file and as a directory).")
    }
    if (code !== undefined && code.startsWith("E")) throw error
    refuse("not_gzip_tar", null, `The body is not a valid tar archive (${(error as Error).message}).`)
  }
  return { directory, entries, totalBytes, files }
}

/**
 * Unpacks a `.tar.gz` into `directory` (which must be new and empty): only regular files and directories,
 * each inside the directory (no absolute names, no `..`), with at most `maxEntries` entries, `maxFileBytes`
 * per file and `maxTotalBytes` in all. Files keep only whether they were executable (0755, else 0644),
 * directories are 0755. The first offending entry stops it with `UnsafeArchive` naming that entry; what was
 * written by then is left for the caller to remove (`extractToFreshDirectory` does).
 */
export const extractTarGz = (
  gzipped: Uint8Array,
  directory: string,
  limits: Partial<ExtractLimits> = {}
): Effect.Effect<Extracted, UnsafeArchive> =>
  Effect.tryPromise({
    try: () => unpack(gzipped, directory, { ...DEFAULT_EXTRACT_LIMITS, ...limits }),
    catch: (error) => error
  }).pipe(
    Effect.catchAll((error) =>
      error instanceof Refusal
        ? Effect.fail(new UnsafeArchive({
          reason: error.reason,
          entry: error.entry,
          message: error.message,
          ...(error.limit === undefined ? {} : { limit: error.limit })
        }))
        : Effect.die(error)
    )
  )

/**
 * A new directory under the system's temporary directory (world-readable, so that a sandbox running under
 * another uid can read it), removed with everything in it when the scope closes.
 */
export const freshDirectory = (prefix = "sandbox-"): Effect.Effect<string, never, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const directory = await mkdtemp(join(tmpdir(), prefix))
      await chmod(directory, 0o755)
      return directory
    }),
    (directory) => Effect.promise(() => rm(directory, { recursive: true, force: true }))
  )

/** `extractTarGz` into a fresh directory that lives as long as the scope. */
export const extractToFreshDirectory = (gzipped: Uint8Array, limits: Partial<ExtractLimits> = {}) =>
  Effect.flatMap(freshDirectory("package-"), (directory) => extractTarGz(gzipped, directory, limits))
