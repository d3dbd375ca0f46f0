import { Data, Duration, Effect } from "effect"
import * as http from "node:http"
import * as https from "node:https"
import type { LookupFunction } from "node:net"
import { describeOutboundError as describeError } from "@platform/outbound"

/** A failed attempt: what went wrong, in words stored as the delivery's `last_error` (never a secret). */
export class DeliveryFailed extends Data.TaggedError("DeliveryFailed")<{
  readonly reason: string
  /** No retry can mend it (the webhook was removed, no secret exists). */
  readonly permanent: boolean
}> {}

const failed = (reason: string) => new DeliveryFailed({ reason, permanent: false })

/** At most this much of an answer's body is read (and thrown away) so its connection can be kept; more closes it. */
const MAX_DRAINED_BODY = 64 * 1024

/**
 * Connections kept open between attempts, per receiver origin. Every new connection is opened
 * through the request's `lookup`, so a kept one was checked when it was opened and stays on the
 * address checked; node's agents use no proxy.
 */
const agents = {
  "http:": new http.Agent({ keepAlive: true, maxFreeSockets: 64 }),
  "https:": new https.Agent({ keepAlive: true, maxFreeSockets: 64 })
}

/**
 * POSTs one attempt and answers the status, or fails with why: no answer within `answerTime`
 * (real time), a connection refused, an address the `lookup` refuses. New connections use `lookup`
 * (publicOnlyLookup: the addresses checked are the ones connected to) and are kept for the next
 * attempt to the same origin; redirects are answers like any other status: never followed.
 */
export const postWebhook = (request: {
  readonly url: URL
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
  readonly answerTime: Duration.Duration
  readonly lookup: LookupFunction
}): Effect.Effect<number, DeliveryFailed> =>
  Effect.async<number, DeliveryFailed>((resumeOnce, signal) => {
    let settled = false
    const resume = (outcome: Effect.Effect<number, DeliveryFailed>) => {
      if (!settled) resumeOnce(outcome)
      settled = true
    }
    const client = request.url.protocol === "https:" ? https : http
    const outgoing = client.request(request.url, {
      method: "POST",
      headers: { ...request.headers, "content-length": String(Buffer.byteLength(request.body)) },
      lookup: request.lookup,
      agent: request.url.protocol === "https:" ? agents["https:"] : agents["http:"],
      signal
    })
    const deadline = setTimeout(() => {
      outgoing.destroy()
      resume(Effect.fail(failed(`no answer within ${Duration.format(request.answerTime)}`)))
    }, Duration.toMillis(request.answerTime))
    outgoing.on("response", (incoming) => {
      clearTimeout(deadline)
      // Only the status counts; a short body is drained so that the connection can serve the next attempt.
      let drained = 0
      incoming.on("data", (chunk: Buffer) => {
        drained += chunk.length
        if (drained > MAX_DRAINED_BODY) incoming.destroy()
      })
      incoming.on("error", () => {})
      resume(Effect.succeed(incoming.statusCode ?? 0))
    })
    outgoing.on("error", (error) => {
      clearTimeout(deadline)
      resume(Effect.fail(failed(describeError(error))))
    })
    outgoing.end(request.body)
    return Effect.sync(() => {
      clearTimeout(deadline)
      outgoing.destroy()
    })
  })
