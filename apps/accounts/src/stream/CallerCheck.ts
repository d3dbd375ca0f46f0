import { constantTimeEqual } from "@platform/crypto"
import { now } from "@platform/service"
import { Effect, Option } from "effect"
import { AccountsRepo } from "../accounts/AccountsRepo.ts"
import { AppsRepo } from "../apps/AppsRepo.ts"
import { SigninsRepo } from "../oauth/SigninsRepo.ts"
import type { StreamCaller } from "./StreamCaller.ts"

/** The error code a new request with these credentials would get, when a running stream must end. */
export type CallerRefusal = "invalid_app_credentials" | "app_disabled" | "token_revoked" | "session_expired" | "account_deleted"

/**
 * The recheck of a running stream's credentials, read from the database (not the per-server credential
 * cache, which would keep a disabled app streaming for up to a minute): the app still exists, is not
 * disabled and still has the secret the stream was opened with; or the account's sign-in is neither
 * revoked nor over, and the account is not deleted. An access token's own expiry is judged when the
 * stream opens only: the stream lives as long as the sign-in behind it (and at most an hour).
 */
export class CallerCheck extends Effect.Service<CallerCheck>()("accounts/CallerCheck", {
  effect: Effect.gen(function*() {
    const apps = yield* AppsRepo
    const signins = yield* SigninsRepo
    const accounts = yield* AccountsRepo

    const stillGood = (caller: StreamCaller): Effect.Effect<CallerRefusal | undefined> =>
      Effect.gen(function*() {
        if (caller.kind === "app") {
          const app = yield* apps.credentialsOf(caller.appId)
          if (Option.isNone(app) || app.value.secret_hash === null) return "invalid_app_credentials"
          if (!constantTimeEqual(caller.secretDigest, app.value.secret_hash)) return "invalid_app_credentials"
          return app.value.status === "disabled" ? "app_disabled" : undefined
        }
        const signin = yield* signins.find(caller.signinId)
        if (Option.isNone(signin) || signin.value.revoked_at !== null) return "token_revoked"
        if (signin.value.expires_at.getTime() <= (yield* now).getTime()) return "session_expired"
        const account = yield* accounts.findByUuid(caller.uuid)
        return Option.isNone(account) || account.value.status === "deleted" ? "account_deleted" : undefined
      })

    return { stillGood } as const
  }),
  dependencies: [AppsRepo.Default, SigninsRepo.Default, AccountsRepo.Default]
}) {}
