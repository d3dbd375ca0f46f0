import { JWT_BEARER, oauthError, required } from "@platform/oauth"
import { Effect, Layer } from "effect"
import { addGrant, grantOf } from "../../oauth/TokenGrants.ts"
import { assertionSignIn } from "./assertionSignIn.ts"
import { TokenIssuerLive } from "../TokenIssuerLive.ts"
import { CustodianRequestsRepo } from "../CustodianRequestsRepo.ts"
import { Custody } from "../Custody.ts"
import { AssertionVerifier } from "./AssertionVerifier.ts"

/**
 * grant_type urn:ietf:params:oauth:grant-type:jwt-bearer for the first-party client: a Silicon's
 * key sign-in assertion. RFC 7523 §3.1: an assertion that does not hold, or whose Silicon may not
 * sign in, is invalid_grant.
 */
export const jwtBearerGrant = (parameters: ReadonlyMap<string, string>) =>
  Effect.flatMap(required(parameters, "assertion"), (assertion) =>
    assertionSignIn(assertion, parameters.get("client_label") ?? null).pipe(
      Effect.mapError((refused) => oauthError("invalid_grant", refused.message))
    ))

/** The jwt-bearer grant, added to the token endpoint's grants. */
export const JwtBearerGrantLive = addGrant(grantOf(JWT_BEARER, (_client, parameters) => jwtBearerGrant(parameters))).pipe(
  Layer.provide([
    TokenIssuerLive,
    CustodianRequestsRepo.Default,
    Custody.Default,
    AssertionVerifier.Default
  ])
)
