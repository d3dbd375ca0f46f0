import { gzipSync } from "node:zlib"
import { type Header, pack } from "tar-stream"

export interface PackEntry {
  readonly name: string
  readonly type?: Header["type"]
  /** A file's content (text is UTF-8). */
  readonly content?: string | Uint8Array
  readonly mode?: number
  readonly linkname?: string
}

/**
 * A `.tar.gz` of these entries, in order, exactly as named (tests and benchmarks build packages, and
 * unsafe ones, with it).
 */
export const packTarGz = async (entries: ReadonlyArray<PackEntry>): Promise<Buffer> => {
  const archive = pack()
  const chunks: Array<Buffer> = []
  archive.on("data", (chunk) => chunks.push(chunk as Buffer))
  const ended = new Promise<void>((resolve, reject) => {
    archive.on("end", resolve)
    archive.on("error", reject)
  })
  for (const entry of entries) {
    const type = entry.type ?? "file"
    const content = type === "file" ? Buffer.from(entry.content ?? "") : undefined
    const header = {
      name: entry.name,
      type,
      mode: entry.mode ?? (type === "directory" ? 0o755 : 0o644),
      ...(entry.linkname === undefined ? {} : { linkname: entry.linkname })
    }
    await new Promise<void>((resolve, reject) => {
      const done = (error?: Error | null) => (error ? reject(error) : resolve())
      if (content === undefined) archive.entry(header, done)
      else archive.entry({ ...header, size: content.length }, content, done)
    })
  }
  archive.finalize()
  await ended
  return gzipSync(Buffer.concat(chunks))
}
