import { Data, Duration, Effect } from "effect"
import * as https from "node:https"
import type { LookupFunction } from "node:net"
import { rootCertificates } from "node:tls"
import { describeOutboundError as describeError } from "./describeOutboundError.ts"

/** Why a bounded GET gave nothing usable, in words safe to log and to show the caller who configured the URL. */
export class OutboundFetchFailed extends Data.TaggedError("OutboundFetchFailed")<{ readonly reason: string }> {}

export interface BoundedGet {
  readonly url: URL
  /** The connect-time guard (publicOnlyLookup): the addresses checked are the ones connected to. */
  readonly lookup: LookupFunction
  /** Until the TLS handshake is done. */
  readonly connectTimeout: Duration.DurationInput
  /** From the start to the last byte. */
  readonly totalTimeout: Duration.DurationInput
  /** The body is refused (and the connection cut) past this many bytes. */
  readonly maxBytes: number
  /** PEM certificates trusted besides the system's roots (a development CA); the system's stay trusted. */
  readonly extraCertificates?: ReadonlyArray<string>
}

/**
 * A GET to a URL someone else configured (an issuer's discovery document, its JWKS): https only,
 * through the outbound guard's lookup, no agent (no proxy, no kept connection), a connect and a
 * total deadline, a size cap, and no redirects (a 3xx is a failure). Answers the 2xx body.
 */
export const boundedGet = (request: BoundedGet): Effect.Effect<Buffer, OutboundFetchFailed> =>
  request.url.protocol !== "https:"
    ? Effect.fail(new OutboundFetchFailed({ reason: "only https URLs are fetched" }))
    : Effect.async<Buffer, OutboundFetchFailed>((resumeOnce) => {
      let settled = false
      const timers: Array<NodeJS.Timeout> = []
      const finish = (outcome: Effect.Effect<Buffer, OutboundFetchFailed>) => {
        if (settled) return
        settled = true
        timers.forEach(clearTimeout)
        resumeOnce(outcome)
      }
      const fail = (reason: string) => {
        finish(Effect.fail(new OutboundFetchFailed({ reason })))
        outgoing.destroy()
      }
      const outgoing = https.request(request.url, {
        method: "GET",
        headers: { accept: "application/json" },
        lookup: request.lookup,
        agent: false,
        ...(request.extraCertificates === undefined ? {} : { ca: [...rootCertificates, ...request.extraCertificates] })
      })
      const connectTimeout = Duration.decode(request.connectTimeout)
      const connecting = setTimeout(() => fail(`no connection within ${Duration.format(connectTimeout)}`), Duration.toMillis(connectTimeout))
      const totalTimeout = Duration.decode(request.totalTimeout)
      timers.push(
        connecting,
        setTimeout(() => fail(`no complete answer within ${Duration.format(totalTimeout)}`), Duration.toMillis(totalTimeout))
      )
      outgoing.on("socket", (socket) => socket.once("secureConnect", () => clearTimeout(connecting)))
      outgoing.on("response", (incoming) => {
        const status = incoming.statusCode ?? 0
        if (status >= 300 && status < 400) return fail(`answered HTTP ${status} (redirects are not followed)`)
        if (status < 200 || status >= 300) return fail(`answered HTTP ${status}`)
        const declared = Number(incoming.headers["content-length"])
        if (declared > request.maxBytes) return fail(`the answer is larger than ${request.maxBytes} bytes`)
        const chunks: Array<Buffer> = []
        let received = 0
        incoming.on("data", (chunk: Buffer) => {
          received += chunk.length
          if (received > request.maxBytes) return fail(`the answer is larger than ${request.maxBytes} bytes`)
          chunks.push(chunk)
        })
        incoming.on("end", () => finish(Effect.succeed(Buffer.concat(chunks))))
        incoming.on("error", (error) => fail(describeError(error)))
      })
      outgoing.on("error", (error) => fail(describeError(error)))
      outgoing.end()
      return Effect.sync(() => {
        settled = true
        timers.forEach(clearTimeout)
        outgoing.destroy()
      })
    })
