import { expect, it } from "@effect/vitest"
import { sha256Hex } from "@platform/crypto"
import { Duration, Effect, Layer, Option, TestClock } from "effect"
import { AppCredentials, CREDENTIAL_CACHE } from "../src/apps/AppCredentials.ts"
import type { AppStatus } from "../src/apps/AppRecord.ts"
import { AppsRepo } from "../src/apps/AppsRepo.ts"

const APP_ID = "cached-app"
const SECRET = "sas_first-secret"

/** AppCredentials over an AppsRepo whose one app can be changed under it; `reads` counts the credential reads. */
const credentialsOver = Effect.gen(function*() {
  const stored = { secret_hash: sha256Hex(SECRET) as string | null, status: "active" as AppStatus }
  let reads = 0
  const apps = {
    credentialsOf: (appId: string) =>
      Effect.sync(() => {
        reads++
        return appId === APP_ID ? Option.some({ ...stored }) : Option.none()
      })
  } as unknown as AppsRepo
  const credentials = yield* AppCredentials.pipe(
    Effect.provide(AppCredentials.DefaultWithoutDependencies.pipe(Layer.provide(Layer.succeed(AppsRepo, apps))))
  )
  return { credentials, stored, reads: () => reads }
})

const codeOf = (effect: Effect.Effect<string, { readonly _tag: string }>) =>
  Effect.map(Effect.either(effect), (result) => result._tag === "Right" ? "ok" : result.left._tag)

it.effect("a right app credential check is reused for 60 seconds, then checked again (a rotated secret is noticed)", () =>
  Effect.gen(function*() {
    const { credentials, reads, stored } = yield* credentialsOver
    expect(yield* codeOf(credentials.verify(APP_ID, SECRET))).toBe("ok")
    expect(reads()).toBe(1)
    // Rotated elsewhere: within the minute the old secret's success is still the cached one, without a read.
    stored.secret_hash = sha256Hex("sas_second-secret")
    yield* TestClock.adjust(Duration.subtract(CREDENTIAL_CACHE, Duration.seconds(1)))
    expect(yield* codeOf(credentials.verify(APP_ID, SECRET))).toBe("ok")
    expect(reads()).toBe(1)
    yield* TestClock.adjust(Duration.seconds(2))
    expect(yield* codeOf(credentials.verify(APP_ID, SECRET))).toBe("InvalidAppCredentials")
    expect(reads()).toBe(2)
    expect(yield* codeOf(credentials.verify(APP_ID, "sas_second-secret"))).toBe("ok")
  }))

it.effect("an app disabled elsewhere is noticed once the cached check expires", () =>
  Effect.gen(function*() {
    const { credentials, stored } = yield* credentialsOver
    expect(yield* codeOf(credentials.verify(APP_ID, SECRET))).toBe("ok")
    stored.status = "disabled"
    yield* TestClock.adjust(Duration.seconds(30))
    expect(yield* codeOf(credentials.verify(APP_ID, SECRET))).toBe("ok")
    yield* TestClock.adjust(Duration.seconds(31))
    expect(yield* codeOf(credentials.verify(APP_ID, SECRET))).toBe("AppDisabled")
  }))

it.effect("a wrong secret or an unknown app is never cached: each try reads again", () =>
  Effect.gen(function*() {
    const { credentials, reads } = yield* credentialsOver
    expect(yield* codeOf(credentials.verify(APP_ID, "sas_wrong"))).toBe("InvalidAppCredentials")
    expect(yield* codeOf(credentials.verify(APP_ID, "sas_wrong"))).toBe("InvalidAppCredentials")
    expect(yield* codeOf(credentials.verify("other-app", SECRET))).toBe("InvalidAppCredentials")
    expect(reads()).toBe(3)
  }))

it.effect("a check says until when it is trusted: the instant its success stops being reused, the same on a reuse", () =>
  Effect.gen(function*() {
    const { credentials } = yield* credentialsOver
    yield* TestClock.adjust(Duration.seconds(5))
    const first = yield* credentials.check(APP_ID, SECRET)
    expect(first).toEqual({ appId: APP_ID, trustedUntil: 5_000 + Duration.toMillis(CREDENTIAL_CACHE) })
    // A reuse is trusted no longer than the check it reuses: what replays its answer (kept answers) stops with it.
    yield* TestClock.adjust(Duration.seconds(30))
    expect((yield* credentials.check(APP_ID, SECRET)).trustedUntil).toBe(first.trustedUntil)
    yield* TestClock.adjust(Duration.seconds(30))
    expect((yield* credentials.check(APP_ID, SECRET)).trustedUntil).toBe(65_000 + Duration.toMillis(CREDENTIAL_CACHE))
  }))
