import { Clock, Effect } from "effect"
import { AccessTokens, FIRST_PARTY_CLIENT_ID } from "../../src/oauth/AccessTokens.ts"
import { SigninsRepo } from "../../src/oauth/SigninsRepo.ts"

/**
 * A first-party sign-in made directly through the server's own services, for tests of
 * routes behind account authentication that are not about how one signs in.
 */
export const signInDirectly = (accountUuid: string, options: { readonly clientLabel?: string; readonly at?: Date } = {}) =>
  Effect.gen(function*() {
    const now = options.at ?? new Date(yield* Clock.currentTimeMillis)
    const signins = yield* SigninsRepo
    const tokens = yield* AccessTokens
    const { refreshToken, signin } = yield* Effect.orDie(signins.start({
      accountUuid,
      clientId: FIRST_PARTY_CLIENT_ID,
      clientLabel: options.clientLabel ?? "test",
      method: "cli_code",
      now
    }))
    const access = yield* tokens.issue({
      accountUuid,
      signinId: signin.id,
      clientId: FIRST_PARTY_CLIENT_ID,
      audience: FIRST_PARTY_CLIENT_ID,
      scope: "profile",
      now
    })
    return { signinId: signin.id, refreshToken, accessToken: access.token }
  }).pipe(Effect.provide([SigninsRepo.Default, AccessTokens.Default]))
