import { randomHex } from "@platform/crypto"
import { Clock, Effect, Option } from "effect"
import { AccountsRepo } from "../../src/accounts/AccountsRepo.ts"
import { AppsRepo } from "../../src/apps/AppsRepo.ts"
import { createFakeApp, type NewFakeApp } from "../../src/apps/FakeApps.ts"
import { AuthorizationCodes, type NewAuthorizationCode } from "../../src/oauth/AuthorizationCodes.ts"

export const REDIRECT_URI = "https://rp.example.test/callback"

/** A fake app with one redirect URI (and EdDSA id tokens unless told); answers its id and its secret. */
export const createApp = (
  redirectUris: ReadonlyArray<string> = [REDIRECT_URI],
  options: Pick<NewFakeApp, "idTokenSignedResponseAlg"> = {}
) =>
  Effect.gen(function*() {
    const appId = `t${randomHex(8)}`
    const { secret } = yield* createFakeApp({ appId, name: "Test app", redirectUris, owner: Option.none(), scopeFields: [], ...options })
    return { appId, secret }
  }).pipe(Effect.orDie, Effect.provide([AccountsRepo.Default, AppsRepo.Default]))

/** An authorization code as the hosted flow would mint it at the end of a sign-in. */
export const mintCode = (
  input: Pick<NewAuthorizationCode, "appId" | "accountUuid"> & Partial<Omit<NewAuthorizationCode, "appId" | "accountUuid">>
) =>
  Effect.gen(function*() {
    const codes = yield* AuthorizationCodes
    const now = new Date(yield* Clock.currentTimeMillis)
    return yield* codes.issue({
      redirectUri: REDIRECT_URI,
      codeChallenge: null,
      codeChallengeMethod: null,
      scope: "openid profile",
      nonce: null,
      authTime: now,
      now,
      ...input
    })
  }).pipe(Effect.provide(AuthorizationCodes.Default))
