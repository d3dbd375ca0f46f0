import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Either, Option } from "effect"
import { describeConfigError, ServiceConfig } from "../src/index.ts"

const read = (env: Record<string, string>) =>
  Effect.either(
    Effect.withConfigProvider(
      ServiceConfig("EXAMPLE", { defaultPort: 4900 }),
      ConfigProvider.fromMap(new Map(Object.entries(env)), { pathDelim: "_" })
    )
  )

const refusal = (env: Record<string, string>) =>
  Effect.map(read(env), (result) => (Either.isLeft(result) ? describeConfigError(result.left) : "accepted"))

describe("ServiceConfig", () => {
  it.effect("defaults to the given port, loopback, development, and a public URL on that port", () =>
    Effect.gen(function*() {
      const settings = yield* Effect.flatten(read({}))
      expect(settings).toMatchObject({
        port: 4900,
        host: "127.0.0.1",
        publicUrl: "http://127.0.0.1:4900",
        environment: "development",
        trustProxy: false,
        drainSeconds: 10
      })
      expect(Option.isNone(settings.internalToken)).toBe(true)
      expect((yield* Effect.flatten(read({ EXAMPLE_PORT: "4911" }))).publicUrl).toBe("http://127.0.0.1:4911")
    }))

  it.effect("keeps the public URL's origin only", () =>
    Effect.gen(function*() {
      const settings = yield* Effect.flatten(read({ EXAMPLE_PUBLIC_URL: "https://Example.COM:443/" }))
      expect(settings.publicUrl).toBe("https://example.com")
    }))

  it.effect("a refusal names each variable, once, on one line", () =>
    Effect.gen(function*() {
      expect(yield* refusal({ EXAMPLE_PUBLIC_URL: "https://example.com/path" })).toBe(
        "EXAMPLE_PUBLIC_URL must be an http(s) origin such as https://example.example.com, got \"https://example.com/path\""
      )
      expect(yield* refusal({ EXAMPLE_KEY_ENCRYPTION_KEY: "c2hvcnQ=" })).toBe(
        "EXAMPLE_KEY_ENCRYPTION_KEY must be base64 of exactly 32 bytes, got 5 bytes (generate one with `openssl rand -base64 32`)"
      )
      expect(yield* refusal({ EXAMPLE_DRAIN_SECONDS: "301", EXAMPLE_ENVIRONMENT: "staging" })).toBe(
        "EXAMPLE_ENVIRONMENT must be one of (development, production) but received \"staging\"; " +
          "EXAMPLE_DRAIN_SECONDS must be between 0 and 300"
      )
    }))
})
