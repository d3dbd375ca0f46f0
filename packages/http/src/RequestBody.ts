import type { IncomingMessage } from "node:http"

export type BodyRead =
  | { readonly _tag: "Read"; readonly bytes: Buffer }
  | { readonly _tag: "TooLarge" }
  | { readonly _tag: "Aborted" }

const EMPTY: BodyRead = { _tag: "Read", bytes: Buffer.alloc(0) }
const TOO_LARGE: BodyRead = { _tag: "TooLarge" }
const ABORTED: BodyRead = { _tag: "Aborted" }

/**
 * Reads a request body up to `limit` bytes and calls `done` once with what it read. A declared
 * Content-Length over the limit is refused before a byte is read; a chunked body is refused as
 * soon as it passes the limit, without buffering the rest.
 */
export const readBody = (source: IncomingMessage, limit: number, done: (read: BodyRead) => void): void => {
  const declared = Number(source.headers["content-length"])
  if (Number.isFinite(declared) && declared > limit) return done(TOO_LARGE)
  if (source.readableEnded) return done(EMPTY)
  const chunks: Array<Buffer> = []
  let size = 0
  const finish = (read: BodyRead) => {
    source.off("data", onData)
    source.off("end", onEnd)
    source.off("error", onError)
    source.off("aborted", onError)
    done(read)
  }
  const onData = (chunk: Buffer) => {
    size += chunk.length
    if (size > limit) {
      source.pause()
      finish(TOO_LARGE)
      return
    }
    chunks.push(chunk)
  }
  const onEnd = () => finish(chunks.length === 1 ? { _tag: "Read", bytes: chunks[0]! } : { _tag: "Read", bytes: Buffer.concat(chunks, size) })
  const onError = () => finish(ABORTED)
  source.on("data", onData)
  source.once("end", onEnd)
  source.once("error", onError)
  source.once("aborted", onError)
}
