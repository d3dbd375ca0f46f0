import { generateKeyPairSync } from "node:crypto"
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Either, Option, Redacted } from "effect"
import { describeConfigError } from "@platform/service"
import { accountsSettings } from "../src/config.ts"

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

describe("idp_b settings", () => {
  const key = generateKeyPairSync("ec", { namedCurve: "prime256v1" }).privateKey.export({ type: "pkcs8", format: "pem" }).toString()
  const client = {
    ACCOUNTS_IDP_B_SERVICES_ID: "com.example.signin",
    ACCOUNTS_IDP_B_TEAM_ID: "TEAM000001",
    ACCOUNTS_IDP_B_KEY_ID: "KEY0000001",
    ACCOUNTS_IDP_B_PRIVATE_KEY: key
  }

  it.effect("default to the Apple issuer with no deployment client", () =>
    Effect.gen(function*() {
      const settings = yield* Effect.flatten(read({}))
      expect(settings.idpB.issuer).toBe("https://appleid.apple.com")
      expect(Option.isNone(settings.idpB.client)).toBe(true)
    }))

  it.effect("take the services id, team id, key id and a redacted private key, all four together", () =>
    Effect.gen(function*() {
      const settings = yield* Effect.flatten(read({ ...client, ACCOUNTS_IDP_B_ISSUER: "https://idp-b.example" }))
      const configured = Option.getOrThrow(settings.idpB.client)
      expect(settings.idpB.issuer).toBe("https://idp-b.example")
      expect(configured).toMatchObject({ servicesId: "com.example.signin", teamId: "TEAM000001", keyId: "KEY0000001" })
      expect(Redacted.value(configured.privateKey)).toBe(key)
      expect(String(configured.privateKey)).not.toContain("PRIVATE KEY")
      const { ACCOUNTS_IDP_B_PRIVATE_KEY: _key, ...withoutKey } = client
      const partial = yield* read(withoutKey)
      expect(Either.isLeft(partial) && describeConfigError(partial.left)).toMatch(
        /IDP_B_SERVICES_ID must be set together with the other idp_b settings \(missing ACCOUNTS_IDP_B_PRIVATE_KEY\)/
      )
    }))

  it.effect("refuse a bad team id, a key that is not PKCS#8 P-256 (without echoing it) and an http issuer in production", () =>
    Effect.gen(function*() {
      const team = yield* read({ ...client, ACCOUNTS_IDP_B_TEAM_ID: "team1" })
      expect(Either.isLeft(team) && describeConfigError(team.left)).toMatch(/IDP_B_TEAM_ID must be 10 upper-case letters or digits/)
      const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" }).toString()
      const wrongKey = yield* read({ ...client, ACCOUNTS_IDP_B_PRIVATE_KEY: rsa })
      const message = Either.isLeft(wrongKey) ? describeConfigError(wrongKey.left) : ""
      expect(message).toMatch(/IDP_B_PRIVATE_KEY must be a PKCS#8 PEM private key on the P-256 curve/)
      expect(message).not.toContain(rsa.split("\n")[1])
      const http = yield* read({ ACCOUNTS_ENVIRONMENT: "production", ACCOUNTS_IDP_B_ISSUER: "http://idp-b.example" })
      expect(Either.isLeft(http) && describeConfigError(http.left)).toMatch(/IDP_B_ISSUER must be an https URL/)
    }))
})
