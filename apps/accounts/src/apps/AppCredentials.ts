import { constantTimeEqual, sha256Hex } from "@platform/crypto"
import { Clock, Duration, Effect, Option } from "effect"
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

/**
 * Checks an app's id and secret. Unknown app and wrong secret give the same
 * answer in the same time; a disabled app's right credentials are 403
 * app_disabled. Right answers are cached for 60 seconds in this process.
 */
export class AppCredentials extends Effect.Service<AppCredentials>()("accounts/AppCredentials", {
  effect: Effect.gen(function*() {
    const apps = yield* AppsRepo
    const cache = new ExpiringCache<AppStatus>(10_000)

    const verify = (appId: string, secret: string): Effect.Effect<string, InvalidAppCredentials | AppDisabled> =>
      Effect.gen(function*() {
        const nowMillis = yield* Clock.currentTimeMillis
        const digest = sha256Hex(secret)
        const key = `${appId}\n${digest}`
        let status = cache.get(key, nowMillis)
        if (status === undefined) {
          const stored = yield* apps.credentialsOf(appId)
          const expected = Option.match(stored, { onNone: () => NO_SECRET, onSome: (row) => row.secret_hash ?? NO_SECRET })
          const right = constantTimeEqual(digest, expected) && Option.isSome(stored) && stored.value.secret_hash !== null
          if (!right) return yield* invalid()
          status = stored.value.status
          cache.set(key, status, nowMillis + Duration.toMillis(CREDENTIAL_CACHE))
        }
        if (status === "disabled") {
          return yield* new AppDisabled({ message: "This app is disabled; its authors can still manage it." })
        }
        return appId
      })

    return { verify } as const
  }),
  dependencies: [AppsRepo.Default]
}) {}
