import { randomToken, sha256Hex } from "@platform/crypto"
import { Effect, Option } from "effect"
import type { SigninRow } from "../oauth/Signin.ts"
import { SIGNIN_LIFETIME, SigninsRepo } from "../oauth/SigninsRepo.ts"

/** The browser session cookie lasts 900 days (spec 1, Lifetimes): the lifetime of the first-party sign-in it stands for. */
export const BROWSER_SESSION_LIFETIME = SIGNIN_LIFETIME

/**
 * The account site's browser sessions (`sa_session`): a first-party sign-in
 * row with method `hosted` whose cookie value is kept only as its SHA-256.
 */
export class BrowserSessions extends Effect.Service<BrowserSessions>()("accounts/BrowserSessions", {
  effect: Effect.gen(function*() {
    const signins = yield* SigninsRepo

    /** Starts a session for the account; the cookie value is returned once. */
    const start = (accountUuid: string, at: Date): Effect.Effect<string> => {
      const cookie = randomToken("sas_")
      return Effect.as(signins.startBrowserSession(accountUuid, sha256Hex(cookie), at), cookie)
    }

    /** The live sign-in the cookie stands for, if any. */
    const live = (cookie: string | undefined, at: Date): Effect.Effect<Option.Option<SigninRow>> =>
      cookie === undefined || cookie === ""
        ? Effect.succeed(Option.none())
        : signins.findBySessionCookie(sha256Hex(cookie)).pipe(
          Effect.map(Option.filter((signin) => signin.revoked_at === null && signin.expires_at.getTime() > at.getTime()))
        )

    return { start, live } as const
  }),
  dependencies: [SigninsRepo.Default]
}) {}
