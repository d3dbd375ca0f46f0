import { HttpServerRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { ApiError } from "@platform/http"
import { Effect, Either, Option, Redacted, Schema } from "effect"
import { internalTokenCheck, internalTokenFailure } from "../src/index.ts"

class TokenRequired extends ApiError<TokenRequired>()("TokenRequired", { code: "token_required", status: 401 }) {}
class BadToken extends ApiError<BadToken>()("BadToken", { code: "bad_token", status: 401 }) {}
class RoutesOff extends ApiError<RoutesOff>()("RoutesOff", { code: "routes_off", status: 403 }) {}

const refusals = { required: TokenRequired, invalid: BadToken, disabled: RoutesOff }
const TOKEN = "s3cret-internal!token"

/** The check's outcome for a request carrying `authorization` (or none), with `configured` as the service's token. */
const outcome = (configured: string | undefined, authorization?: string) =>
  internalTokenCheck(configured === undefined ? Option.none() : Option.some(Redacted.make(configured)), refusals).pipe(
    Effect.provideService(
      HttpServerRequest.HttpServerRequest,
      HttpServerRequest.fromWeb(
        new Request("http://127.0.0.1/internal", { headers: authorization === undefined ? {} : { authorization } })
      )
    ),
    Effect.either,
    Effect.map(Either.mapLeft((refused) => refused._tag))
  )

describe("internalTokenCheck", () => {
  it.effect("lets through the configured token as a bearer, the scheme in any case", () =>
    Effect.gen(function*() {
      expect(yield* outcome(TOKEN, `Bearer ${TOKEN}`)).toEqual(Either.right(undefined))
      expect(yield* outcome(TOKEN, `  bearer   ${TOKEN} `)).toEqual(Either.right(undefined))
    }))

  it.effect("answers with the service's own classes: required, invalid, disabled", () =>
    Effect.gen(function*() {
      expect(yield* outcome(TOKEN)).toEqual(Either.left("TokenRequired"))
      expect(yield* outcome(TOKEN, "   ")).toEqual(Either.left("TokenRequired"))
      expect(yield* outcome(TOKEN, "Bearer")).toEqual(Either.left("BadToken"))
      expect(yield* outcome(TOKEN, "Bearer wrong")).toEqual(Either.left("BadToken"))
      expect(yield* outcome(TOKEN, `Bearer ${TOKEN}x`)).toEqual(Either.left("BadToken"))
      expect(yield* outcome(TOKEN, `Basic ${TOKEN}`)).toEqual(Either.left("BadToken"))
      expect(yield* outcome(TOKEN, TOKEN)).toEqual(Either.left("BadToken"))
    }))

  it.effect("with no token configured every call is refused as disabled, even one that sends a token", () =>
    Effect.gen(function*() {
      expect(yield* outcome(undefined)).toEqual(Either.left("RoutesOff"))
      expect(yield* outcome(undefined, `Bearer ${TOKEN}`)).toEqual(Either.left("RoutesOff"))
    }))

  it("the failure schema writes each refusal as the error envelope with its code", () => {
    const encode = Schema.encodeSync(internalTokenFailure(refusals))
    expect(encode(new TokenRequired({ message: "m" }))).toEqual({ error: { code: "token_required", message: "m" } })
    expect(encode(new BadToken({ message: "m" }))).toEqual({ error: { code: "bad_token", message: "m" } })
    expect(encode(new RoutesOff({ message: "m" }))).toEqual({ error: { code: "routes_off", message: "m" } })
  })
})
