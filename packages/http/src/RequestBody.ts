import type { IncomingMessage } from "node:http"
import { Effect } from "effect"

export type BodyRead =
  | { readonly _tag: "Read"; readonly bytes: Buffer }
  | { readonly _tag: "TooLarge" }
  | { readonly _tag: "Aborted" }

/**
 * Reads a request body up to `limit` bytes. A declared Content-Length over
 * the limit is refused before a byte is read; a chunked body is refused as
 * soon as it passes the limit, without buffering the rest.
 */
export const readBody = (source: IncomingMessage, limit: number): Effect.Effect<BodyRead> => {
  const declared = Number(source.headers["content-length"])
  if (Number.isFinite(declared) && declared > limit) return Effect.succeed({ _tag: "TooLarge" })
  if (source.readableEnded) return Effect.succeed({ _tag: "Read", bytes: Buffer.alloc(0) })
  return Effect.async<BodyRead>((resume) => {
    const chunks: Array<Buffer> = []
    let size = 0
    const cleanup = () => {
      source.off("data", onData)
      source.off("end", onEnd)
      source.off("error", onError)
      source.off("aborted", onError)
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) {
        cleanup()
        source.pause()
        resume(Effect.succeed({ _tag: "TooLarge" }))
        return
      }
      chunks.push(chunk)
    }
    const onEnd = () => {
      cleanup()
      resume(Effect.succeed({ _tag: "Read", bytes: Buffer.concat(chunks, size) }))
    }
    const onError = () => {
      cleanup()
      resume(Effect.succeed({ _tag: "Aborted" }))
    }
    source.on("data", onData)
    source.once("end", onEnd)
    source.once("error", onError)
    source.once("aborted", onError)
    return Effect.sync(cleanup)
  })
}
