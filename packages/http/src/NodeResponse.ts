import { Cookies, type HttpServerResponse } from "@effect/platform"
import { Chunk, Effect, Stream } from "effect"
import type { OutgoingHttpHeaders, ServerResponse } from "node:http"
import { Readable } from "node:stream"
import { pipeline } from "node:stream/promises"

/** The response's headers (its cookies as Set-Cookie), then `extra` over them. */
const headersOf = (
  response: HttpServerResponse.HttpServerResponse,
  extra: Readonly<Record<string, string>> | undefined
): OutgoingHttpHeaders => {
  const merged: OutgoingHttpHeaders = extra === undefined ? response.headers : { ...response.headers, ...extra }
  if (Cookies.isEmpty(response.cookies)) return merged
  const cookies = Cookies.toSetCookieHeaders(response.cookies)
  const own = response.headers["set-cookie"]
  return { ...merged, "set-cookie": own === undefined ? cookies : [...cookies, own] }
}

/** Writes a stream body chunk by chunk, waiting for the socket to drain when its buffer is full. */
const writeStream = (
  node: ServerResponse,
  stream: Stream.Stream<Uint8Array, unknown>
): Effect.Effect<void> => {
  const drained = Effect.async<void>((resume) => {
    node.once("drain", () => resume(Effect.void))
  })
  return stream.pipe(
    Stream.runForEachChunk((chunk) => {
      let full = false
      for (const bytes of Chunk.toReadonlyArray(chunk)) full = !node.write(bytes)
      return full ? drained : Effect.void
    }),
    Effect.matchCause({ onSuccess: () => node.end(), onFailure: () => node.destroy() })
  )
}

/**
 * Sends a response on a Node ServerResponse: status, headers (cookies as Set-Cookie, `extra` over the
 * response's own) and body, in one write where the body is already bytes. Returns the effect that
 * still has to run when the body is a stream (it may wait for the socket), else undefined: everything
 * else is written at once. Nothing is written twice.
 */
export const sendResponse = (
  node: ServerResponse,
  method: string,
  response: HttpServerResponse.HttpServerResponse,
  extra?: Readonly<Record<string, string>>
): Effect.Effect<void> | undefined => {
  if (node.writableEnded || node.headersSent) return undefined
  const headers = headersOf(response, extra)
  const body = response.body
  if (method === "HEAD" || body._tag === "Empty") {
    node.writeHead(response.status, headers).end()
    return undefined
  }
  switch (body._tag) {
    case "Uint8Array":
      node.writeHead(response.status, headers).end(body.body)
      return undefined
    case "Raw": {
      const raw = body.body as unknown
      if (raw instanceof Readable) {
        node.writeHead(response.status, headers)
        return Effect.promise(() => pipeline(raw, node).catch(() => node.destroy()))
      }
      node.writeHead(response.status, headers).end(raw as string | Uint8Array)
      return undefined
    }
    case "FormData": {
      const encoded = new Response(body.formData)
      node.writeHead(response.status, { ...headers, ...Object.fromEntries(encoded.headers) })
      return Effect.promise(() => pipeline(Readable.fromWeb(encoded.body as never), node).catch(() => node.destroy()))
    }
    case "Stream":
      node.writeHead(response.status, headers)
      return writeStream(node, body.stream)
  }
}
