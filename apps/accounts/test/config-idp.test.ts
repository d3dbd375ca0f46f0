import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Either, Option, Redacted } from "effect"
import { accountsSettings, describeConfigError } from "../src/config.ts"

const read = (env: Record<string, string>) =>
  Effect.either(Effect.withConfigProvider(accountsSettings, ConfigProvider.fromMap(new Map(Object.entries(env)), { pathDelim: "_" })))

describe("idp_a settings", () => {
  it.effect("default to the Google issuer with no deployment client", () =>
    Effect.gen(function*() {
      const settings = yield* Effect.flatten(read({}))
      expect(settings.idpA.issuer).toBe("https://accounts.google.com")
      expect(Option.isNone(settings.idpA.client)).toBe(true)
    }))

  it.effect("take the deployment's client id and a redacted secret, set together", () =>
    Effect.gen(function*() {
      const settings = yield* Effect.flatten(read({
        ACCOUNTS_IDP_A_ISSUER: "https://idp.example",
        ACCOUNTS_IDP_A_CLIENT_ID: "client-1",
        ACCOUNTS_IDP_A_CLIENT_SECRET: "s3cret"
      }))
      const client = Option.getOrThrow(settings.idpA.client)
      expect(settings.idpA.issuer).toBe("https://idp.example")
      expect(client.clientId).toBe("client-1")
      expect(Redacted.value(client.clientSecret)).toBe("s3cret")
      expect(String(client.clientSecret)).not.toContain("s3cret")
      const alone = yield* read({ ACCOUNTS_IDP_A_CLIENT_ID: "client-1" })
      expect(Either.isLeft(alone) && describeConfigError(alone.left)).toMatch(/IDP_A_CLIENT_ID must be set together/)
    }))

  it.effect("refuse an http issuer in production and a URL that is no issuer", () =>
    Effect.gen(function*() {
      const http = yield* read({ ACCOUNTS_ENVIRONMENT: "production", ACCOUNTS_IDP_A_ISSUER: "http://idp.example" })
      expect(Either.isLeft(http) && describeConfigError(http.left)).toMatch(/IDP_A_ISSUER must be an https URL/)
      const bad = yield* read({ ACCOUNTS_IDP_A_ISSUER: "idp.example" })
      expect(Either.isLeft(bad)).toBe(true)
    }))
})
