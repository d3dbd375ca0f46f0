import { constantTimeEqual, sha256Hex } from "@platform/crypto"
import { Clock, Duration, Effect, Layer, Option } from "effect"
import { ExpiringCache } from "@platform/service"
import { type AppStatus } from "./AppRecord.ts"
import { AppsRepo } from "./AppsRepo.ts"
import { AppDisabled, InvalidAppCredentials } from "./errors.ts"

/** A successful credential check is remembered this long per server (spec 1, Lifetimes). */
export const CREDENTIAL_CACHE = Duration.seconds(60)
/** App secrets: 256 random bits after this prefix, shown once, stored as a SHA-256 digest. */
export const APP_SECRET_PREFIX = "sas_"

// Compared against when the app is unknown or has no secret, so that answer costs the same.
const NO_SECRET = sha256Hex("no app secret")

const invalid = () => new InvalidAppCredentials({ message: "Unknown app, or a wrong app secret." })

/** An app whose credentials were right, and until when that check is trusted (epoch milliseconds). */
export interface CheckedApp {
  readonly appId: string
  readonly trustedUntil: number
}

/** The answer to right credentials: the app, unless it is disabled. */
const rightCredentials = (appId: string, status: AppStatus, trustedUntil: number) =>
  status === "disabled"
    ? Effect.fail(new AppDisabled({ message: "This app is disabled; its authors can still manage it." }))
    : Effect.succeed<CheckedApp>({ appId, trustedUntil })

type Check = (appId: string, secret: string) => Effect.Effect<CheckedApp, InvalidAppCredentials | AppDisabled>

/** The service from its check: `verify` is the check's app id, for the callers that need no more. */
const withVerify = (check: Check) => ({
  check,
  verify: (appId: string, secret: string) => Effect.map(check(appId, secret), (app) => app.appId)
}) as const

/** The apps `AppCredentials.Test` knows, with their secrets: one active, one disabled. */
export const TEST_APPS = {
  active: { appId: "test-app", secret: "sas_test-app-secret", status: "active" },
  disabled: { appId: "test-disabled-app", secret: "sas_test-disabled-app-secret", status: "disabled" }
} as const satisfies Record<string, { readonly appId: string; readonly secret: string; readonly status: AppStatus }>

/**
 * Checks an app's id and secret. Unknown app and wrong secret give the same
 * answer in the same time; a disabled app's right credentials are 403
 * app_disabled. Right answers are cached for 60 seconds in this process.
 */
export class AppCredentials extends Effect.Service<AppCredentials>()("accounts/AppCredentials", {
  effect: Effect.gen(function*() {
    const apps = yield* AppsRepo
    const cache = new ExpiringCache<AppStatus>(10_000)

    const check: Check = (appId, secret) =>
      Effect.gen(function*() {
        const nowMillis = yield* Clock.currentTimeMillis
        const digest = sha256Hex(secret)
        const key = `${appId}\n${digest}`
        let checked = cache.entry(key, nowMillis)
        if (checked === undefined) {
          const stored = yield* apps.credentialsOf(appId)
          const expected = Option.match(stored, { onNone: () => NO_SECRET, onSome: (row) => row.secret_hash ?? NO_SECRET })
          const right = constantTimeEqual(digest, expected) && Option.isSome(stored) && stored.value.secret_hash !== null
          if (!right) return yield* invalid()
          checked = { value: stored.value.status, until: nowMillis + Duration.toMillis(CREDENTIAL_CACHE) }
          cache.set(key, checked.value, checked.until)
        }
        return yield* rightCredentials(appId, checked.value, checked.until)
      })

    return withVerify(check)
  }),
  dependencies: [AppsRepo.Default]
}) {
  /** The apps of TEST_APPS only, in memory and uncached: for tests of the callers (client authentication). */
  static Test = Layer.succeed(
    this,
    // Uncached: every check is trusted for the instant it is made.
    this.make(withVerify((appId, secret) => {
      const app = Object.values(TEST_APPS).find((known) => known.appId === appId && known.secret === secret)
      return app === undefined ? Effect.fail(invalid()) : Effect.flatMap(Clock.currentTimeMillis, (now) => rightCredentials(app.appId, app.status, now))
    }))
  )
}
