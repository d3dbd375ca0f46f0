import { describe, expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import { authenticateClient, type ClientAuthenticationPolicy, invalidClient, oauthError, requirePublicClient } from "../src/index.ts"

const SECRETS: ReadonlyMap<string, string> = new Map([["my:app", "s e:cret+1"], ["other-app", "sas_other"]])

const policy: ClientAuthenticationPolicy<"first-party" | "developer", never> = {
  publicClients: ["first-party", "developer"],
  verifySecret: (clientId, secret) => SECRETS.get(clientId) === secret ? Effect.void : Effect.fail(invalidClient())
}

/** `Authorization: Basic` as RFC 6749 §2.3.1 builds it: each part form-url-encoded, then base64. */
const basic = (id: string, secret: string) => {
  const formEncode = (value: string) => new URLSearchParams({ v: value }).toString().slice(2)
  return `Basic ${Buffer.from(`${formEncode(id)}:${formEncode(secret)}`).toString("base64")}`
}

const answer = (authorization: string | undefined, parameters: Record<string, string>) =>
  Effect.either(authenticateClient(policy, authorization, new Map(Object.entries(parameters)))).pipe(
    Effect.map(Either.mapLeft((error) => `${error.error}: ${error.error_description}`))
  )

const UNKNOWN = "invalid_client: Unknown client, or the client authentication failed."

describe("authenticateClient", () => {
  it.effect("client_secret_basic: id and secret form-url-decoded from Basic (%3A a colon, + a space)", () =>
    Effect.gen(function*() {
      const authorization = basic("my:app", "s e:cret+1")
      expect(authorization).toBe(`Basic ${Buffer.from("my%3Aapp:s+e%3Acret%2B1").toString("base64")}`)
      expect(yield* answer(authorization, {})).toEqual(
        Either.right({ kind: "confidential", clientId: "my:app", method: "client_secret_basic" })
      )
      expect(yield* answer(authorization, { client_id: "my:app" })).toEqual(
        Either.right({ kind: "confidential", clientId: "my:app", method: "client_secret_basic" })
      )
    }))

  it.effect("client_secret_post: client_id and client_secret in the body", () =>
    Effect.gen(function*() {
      expect(yield* answer(undefined, { client_id: "other-app", client_secret: "sas_other" })).toEqual(
        Either.right({ kind: "confidential", clientId: "other-app", method: "client_secret_post" })
      )
    }))

  it.effect("a public client sends its client_id alone; any other client without a secret is unknown", () =>
    Effect.gen(function*() {
      expect(yield* answer(undefined, { client_id: "developer" })).toEqual(Either.right({ kind: "public", clientId: "developer" }))
      expect(yield* answer(undefined, { client_id: "first-party" })).toEqual(Either.right({ kind: "public", clientId: "first-party" }))
      expect(yield* answer(undefined, { client_id: "other-app" })).toEqual(Either.left(UNKNOWN))
      // A public client's id with a secret is a secret check, which it cannot pass.
      expect(yield* answer(undefined, { client_id: "developer", client_secret: "x" })).toEqual(Either.left(UNKNOWN))
    }))

  it.effect("refuses a secret in both places, a body client_id other than Basic's, and a missing client_id", () =>
    Effect.gen(function*() {
      expect(yield* answer(basic("other-app", "sas_other"), { client_secret: "sas_other" })).toEqual(
        Either.left("invalid_request: Send the client secret either in Basic or in the body, not both.")
      )
      expect(yield* answer(basic("other-app", "sas_other"), { client_id: "my:app" })).toEqual(
        Either.left("invalid_client: The body's client_id differs from the Basic credentials.")
      )
      expect(yield* answer(undefined, {})).toEqual(Either.left("invalid_request: Parameter client_id is missing."))
      expect(yield* answer(undefined, { client_id: "" })).toEqual(Either.left("invalid_request: Parameter client_id is missing."))
    }))

  it.effect("a wrong secret, an unknown client and an Authorization that is not Basic read the same", () =>
    Effect.gen(function*() {
      expect(yield* answer(basic("other-app", "wrong"), {})).toEqual(Either.left(UNKNOWN))
      expect(yield* answer(basic("nobody", "sas_other"), {})).toEqual(Either.left(UNKNOWN))
      expect(yield* answer(undefined, { client_id: "other-app", client_secret: "wrong" })).toEqual(Either.left(UNKNOWN))
      expect(yield* answer("Bearer abc", { client_id: "developer" })).toEqual(Either.left(UNKNOWN))
      // Without decoding, the secret would be compared as "s+e%3Acret%2B1".
      const raw = `Basic ${Buffer.from("my:app:s e:cret+1").toString("base64")}`
      expect(yield* answer(raw, {})).toEqual(Either.left(UNKNOWN))
    }))

  it.effect("the service's own refusal passes through as it made it", () =>
    Effect.gen(function*() {
      const disabled = yield* Effect.flip(authenticateClient(
        { publicClients: [], verifySecret: () => Effect.fail(oauthError("invalid_client", "This app is disabled.")) },
        basic("a", "b"),
        new Map()
      ))
      expect(disabled.error_description).toBe("This app is disabled.")
    }))
})

describe("requirePublicClient", () => {
  const only = (authorization: string | undefined, parameters: Record<string, string>) =>
    Effect.either(requirePublicClient("first-party", authorization, new Map(Object.entries(parameters)))).pipe(
      Effect.map(Either.mapLeft((error) => `${error.error}: ${error.error_description}`))
    )

  it.effect("lets that client through with its id and no secret; anything else is refused", () =>
    Effect.gen(function*() {
      expect(yield* only(undefined, { client_id: "first-party" })).toEqual(Either.right(undefined))
      expect(yield* only(undefined, { client_id: "developer" })).toEqual(Either.left(UNKNOWN))
      expect(yield* only(undefined, { client_id: "" })).toEqual(Either.left(UNKNOWN))
      expect(yield* only(undefined, { client_id: "first-party", client_secret: "" })).toEqual(Either.left(UNKNOWN))
      expect(yield* only(basic("first-party", "x"), { client_id: "first-party" })).toEqual(Either.left(UNKNOWN))
      expect(yield* only(undefined, {})).toEqual(Either.left("invalid_request: Parameter client_id is missing."))
    }))
})
