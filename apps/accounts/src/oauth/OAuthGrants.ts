import { AUTHORIZATION_CODE, REFRESH_TOKEN } from "@platform/oauth"
import { Effect, Layer } from "effect"
import { authorizationCodeGrant } from "./authorizationCodeGrant.ts"
import { refreshTokenGrant } from "./refreshTokenGrant.ts"
import { grantOf, TokenGrants } from "./TokenGrants.ts"
import { SigninsRepo } from "./SigninsRepo.ts"
import { AuthorizationCodes } from "./AuthorizationCodes.ts"
import { AppSigninsRepo } from "./AppSigninsRepo.ts"
import { AppTokenIssuer } from "./AppTokenIssuer.ts"
import { TokenIssuer } from "./TokenIssuer.ts"

/** oauth's own grants, the map other areas add theirs to. */
export const OAuthGrantsLive = Layer.effect(
  TokenGrants,
  Effect.map(
    Effect.all([grantOf(AUTHORIZATION_CODE, authorizationCodeGrant), grantOf(REFRESH_TOKEN, refreshTokenGrant)]),
    (grants) => new Map(grants.map((grant) => [grant.grantType, grant]))
  )
).pipe(
  Layer.provide([
    SigninsRepo.Default,
    AuthorizationCodes.Default,
    AppSigninsRepo.Default,
    AppTokenIssuer.Default,
    TokenIssuer.Default
  ])
)
