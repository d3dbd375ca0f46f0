import { describe, expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import { oauthParameters, required } from "../src/index.ts"

const parse = (contentType: string | undefined, body: string) =>
  Effect.either(oauthParameters(contentType, body)).pipe(
    Effect.map(Either.map((parameters) => Object.fromEntries(parameters))),
    Effect.map(Either.mapLeft((error) => `${error.error}: ${error.error_description}`))
  )

const FORM = "application/x-www-form-urlencoded"

describe("oauthParameters (RFC 6749 §3.1, §3.2)", () => {
  it.effect("reads a form body, decoding + and percent escapes; without a content type the body is a form", () =>
    Effect.gen(function*() {
      expect(yield* parse(FORM, "grant_type=refresh_token&refresh_token=a%2Bb+c")).toEqual(
        Either.right({ grant_type: "refresh_token", refresh_token: "a+b c" })
      )
      expect(yield* parse(undefined, "client_id=accounts")).toEqual(Either.right({ client_id: "accounts" }))
      expect(yield* parse(FORM, "")).toEqual(Either.right({}))
    }))

  it.effect("refuses a parameter sent twice, even with the same value or an empty one", () =>
    Effect.gen(function*() {
      expect(yield* parse(FORM, "code=a&code=b")).toEqual(Either.left("invalid_request: Parameter code is repeated."))
      expect(yield* parse(FORM, "scope=x&client_id=c&scope=x")).toEqual(Either.left("invalid_request: Parameter scope is repeated."))
      expect(yield* parse(FORM, "state=&state=")).toEqual(Either.left("invalid_request: Parameter state is repeated."))
    }))

  it.effect("reads a JSON object of strings, whatever the media type's parameters", () =>
    Effect.gen(function*() {
      expect(yield* parse("application/json", `{"grant_type":"authorization_code","code":"c"}`)).toEqual(
        Either.right({ grant_type: "authorization_code", code: "c" })
      )
      expect(yield* parse("Application/JSON; charset=utf-8", `{"token":"t"}`)).toEqual(Either.right({ token: "t" }))
      expect(yield* parse("application/json", "  ")).toEqual(Either.right({}))
    }))

  it.effect("refuses a JSON key sent twice, as a repeated form parameter (JSON.parse would keep the last)", () =>
    Effect.gen(function*() {
      expect(yield* parse("application/json", `{"code":"a","code":"b"}`)).toEqual(
        Either.left("invalid_request: Parameter code is repeated.")
      )
      expect(yield* parse("application/json", `{"grant_type":"refresh_token", "scope":"x","sc\\u006fpe":"x"}`)).toEqual(
        Either.left("invalid_request: Parameter scope is repeated.")
      )
      expect(yield* parse("application/json", `{"a":"code","code":"\\"code\\""}`)).toEqual(
        Either.right({ a: "code", code: "\"code\"" })
      )
    }))

  it.effect("refuses malformed JSON, a JSON value that is not an object, and values that are not strings", () =>
    Effect.gen(function*() {
      expect(yield* parse("application/json", "{")).toEqual(Either.left("invalid_request: The JSON body is malformed."))
      expect(yield* parse("application/json", `["a"]`)).toEqual(
        Either.left("invalid_request: The JSON body must be an object of strings.")
      )
      expect(yield* parse("application/json", "null")).toEqual(
        Either.left("invalid_request: The JSON body must be an object of strings.")
      )
      expect(yield* parse("application/json", `{"expires":3600}`)).toEqual(
        Either.left("invalid_request: Parameter expires must be a string.")
      )
    }))
})

describe("required", () => {
  it.effect("gives a present value and refuses a missing or empty one", () =>
    Effect.gen(function*() {
      const parameters = new Map([["code", "abc"], ["state", ""]])
      expect(yield* required(parameters, "code")).toBe("abc")
      const missing = yield* Effect.flip(required(parameters, "redirect_uri"))
      expect([missing.error, missing.error_description]).toEqual(["invalid_request", "Parameter redirect_uri is missing."])
      const empty = yield* Effect.flip(required(parameters, "state"))
      expect([empty.error, empty.error_description]).toEqual(["invalid_request", "Parameter state is missing."])
    }))
})
