import { type HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { sha256Hex } from "@platform/crypto"
import {
  type AroundHandled,
  clientAddressOf,
  IdempotencyInProgress,
  IdempotencyKeyReused,
  IdempotencyResultUnavailable,
  InvalidIdempotencyKey
} from "@platform/http"
import { Context, Effect, Option } from "effect"
import { type AnswerSealing, unsealedAnswers } from "./answerSealing.ts"
import type { IdempotencyStoreService } from "./IdempotencyStore.ts"

const validKey = (minLength: number) => new RegExp(`^[\\x21-\\x7E]{${minLength},200}$`)
const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"])
/** Only these headers of a stored response are replayed; per-request ones (ids, cookies) are not. */
const REPLAYED_HEADERS = ["content-type", "location"]

/** Set by a handler whose response carries a newly created secret: its result is kept 10 minutes, not 24 hours. */
export class ResponseRetention extends Context.Tag("@platform/idempotency/ResponseRetention")<
  ResponseRetention,
  { secret: boolean }
>() {}

/** Marks this request's response as carrying a new secret (no effect outside an idempotent request). */
export const carriesNewSecret: Effect.Effect<void> = Effect.map(
  Effect.serviceOption(ResponseRetention),
  Option.map((cell) => {
    cell.secret = true
  })
)

/**
 * Who a key belongs to: the caller's credential, or for an anonymous caller
 * its address, so two callers who pick the same key never see each other's
 * answers.
 */
const callerOf = (request: HttpServerRequest.HttpServerRequest, trustProxy: boolean): string => {
  const authorization = request.headers["authorization"]
  if (authorization !== undefined) return `authorization:${authorization}`
  const cookie = request.headers["cookie"]
  if (cookie !== undefined) return `cookie:${cookie}`
  return `address:${clientAddressOf(request, trustProxy)}`
}

const bodyOf = (response: HttpServerResponse.HttpServerResponse): Uint8Array | undefined => {
  switch (response.body._tag) {
    case "Uint8Array":
      return response.body.body
    case "Empty":
      return new Uint8Array(0)
    default:
      return undefined
  }
}

const replayedHeadersOf = (response: HttpServerResponse.HttpServerResponse): Record<string, string> => {
  const headers: Record<string, string> = {}
  for (const name of REPLAYED_HEADERS) {
    const value = response.headers[name]
    if (value !== undefined) headers[name] = value
  }
  const contentType = response.body._tag === "Uint8Array" ? response.body.contentType : undefined
  if (contentType !== undefined && headers["content-type"] === undefined) headers["content-type"] = contentType
  return headers
}

/**
 * `Idempotency-Key` on any POST, PUT, PATCH or DELETE: the first request
 * runs and its answer is stored in the same transaction as its writes (a
 * 5xx rolls both back, so that a retry runs again); the same key with the
 * same request replays that answer; with a different request, 409
 * idempotency_key_reused; while the first still runs, 409 idempotency_in_progress.
 */
export const idempotentRequests = (
  store: IdempotencyStoreService,
  options: {
    readonly trustProxy: boolean
    readonly sealing?: AnswerSealing
    /** The shortest key taken (default 1; the registry's is 8). */
    readonly minKeyLength?: number
  }
): AroundHandled => {
  const minLength = options.minKeyLength ?? 1
  const VALID_KEY = validKey(minLength)
  return (request, handled) => {
  const key = request.headers["idempotency-key"]
  if (key === undefined || !MUTATING.has(request.method)) return handled
  const sealing = options.sealing ?? unsealedAnswers
  return Effect.gen(function*() {
    if (!VALID_KEY.test(key)) {
      return yield* Effect.fail(
        new InvalidIdempotencyKey({
          message: `Idempotency-Key must be ${minLength} to 200 visible ASCII characters without spaces.`
        })
      )
    }
    const body = yield* Effect.orElseSucceed(request.arrayBuffer, () => new ArrayBuffer(0))
    const fingerprint = sha256Hex(`${request.method}\n${request.url}\n${Buffer.from(body).toString("latin1")}`)
    const ref = { scope: sha256Hex(callerOf(request, options.trustProxy)), key, fingerprint }
    const retention = { secret: false }
    const run = Effect.map(Effect.provideService(handled, ResponseRetention, retention), (response) => {
      const stored = bodyOf(response)
      return {
        value: response,
        keep: response.status >= 500 || stored === undefined ? Option.none() : Option.some({
          status: response.status,
          headers: replayedHeadersOf(response),
          body: sealing.seal(stored),
          retention: retention.secret ? "secret" as const : "standard" as const
        })
      }
    })
    // Once started, the request runs to its end even if the client goes away:
    // its retry with the same key then gets the answer it missed.
    const result = yield* Effect.orDie(Effect.uninterruptible(store.once(ref, run)))
    switch (result._tag) {
      case "Ran":
        return result.value
      case "Replay":
        return HttpServerResponse.uint8Array(yield* sealing.open(result.body), {
          status: result.status,
          headers: { ...result.headers, "idempotent-replayed": "true", "cache-control": "no-store" }
        })
      case "InProgress":
        return yield* Effect.fail(
          new IdempotencyInProgress({
            message: "A request with this Idempotency-Key is still being processed; retry in a moment."
          })
        )
      case "Mismatch":
        return yield* Effect.fail(
          new IdempotencyKeyReused({
            message: "This Idempotency-Key was used with a different request; use a new key for a new request."
          })
        )
      case "Unavailable":
        return yield* Effect.fail(
          new IdempotencyResultUnavailable({
            message: "The request with this Idempotency-Key was carried out, but its answer held a new secret and is kept only 10 minutes.",
            hint: "It is not run again; look the result up (or make a new request with a new key)."
          })
        )
    }
  })
}
}
