import { SqlClient } from "@effect/sql"
import { DEVICE_CODE, type OAuthError, oauthError, required } from "@platform/oauth"
import { Effect, Either, Layer } from "effect"
import { FIRST_PARTY_CLIENT_ID } from "../oauth/AccessTokens.ts"
import { TokenIssuer } from "../oauth/TokenIssuer.ts"
import { addGrant, grantOf } from "../oauth/TokenGrants.ts"
import type { TokenResponse } from "../oauth/TokenResponse.ts"
import { DeviceCodesRepo, type PollOutcome } from "./DeviceCodesRepo.ts"
import { now } from "@platform/service"
import { TokenIssuerLive } from "../silicons/TokenIssuerLive.ts"

type Refusal = Exclude<PollOutcome, { readonly _tag: "Approved" }>

const refusalOf = (outcome: Refusal): OAuthError => {
  switch (outcome._tag) {
    case "Pending":
      return oauthError("authorization_pending", "The sign-in is waiting for the person to approve it.")
    case "SlowDown":
      return oauthError("slow_down", `Polling too fast: wait ${outcome.intervalSeconds} seconds between requests.`)
    case "Denied":
      return oauthError("access_denied", "The person denied this sign-in.")
    case "Expired":
      return oauthError("expired_token", "The device code has expired; start the sign-in again.")
    case "Used":
      return oauthError("invalid_grant", "The device code was used already.")
    case "Unknown":
      return oauthError("invalid_grant", "The device code is not valid.")
  }
}

/**
 * grant_type urn:ietf:params:oauth:grant-type:device_code (RFC 8628 §3.4) for the
 * first-party client, whose authentication the token endpoint has checked. Using the
 * approved code and starting the sign-in commit together, so the tokens go out once.
 */
export const deviceCodeGrant = (
  parameters: ReadonlyMap<string, string>
): Effect.Effect<TokenResponse, OAuthError, SqlClient.SqlClient | DeviceCodesRepo | TokenIssuer> =>
  Effect.gen(function*() {
    const deviceCode = yield* required(parameters, "device_code")
    const sql = yield* SqlClient.SqlClient
    const codes = yield* DeviceCodesRepo
    const issuer = yield* TokenIssuer
    const at = yield* now
    const collect = (outcome: PollOutcome): Effect.Effect<Either.Either<TokenResponse, Refusal>> =>
      outcome._tag === "Approved"
        ? Effect.map(
          issuer.signIn({ accountUuid: outcome.accountUuid, clientLabel: outcome.clientLabel, method: "device", now: at }),
          Either.right
        )
        : Effect.succeed(Either.left(outcome))
    const answer = yield* sql.withTransaction(Effect.flatMap(codes.poll(deviceCode, FIRST_PARTY_CLIENT_ID, at), collect)).pipe(
      Effect.catchTag("SqlError", Effect.die)
    )
    if (Either.isLeft(answer)) return yield* Effect.fail(refusalOf(answer.left))
    return answer.right
  })

/** The device-code grant, added to the token endpoint's grants. */
export const DeviceCodeGrantLive = addGrant(grantOf(DEVICE_CODE, (_client, parameters) => deviceCodeGrant(parameters))).pipe(
  Layer.provide([
    TokenIssuerLive,
    DeviceCodesRepo.Default
  ])
)
