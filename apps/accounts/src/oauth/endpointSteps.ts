import type { HttpServerRequest } from "@effect/platform"
import { noStore } from "@platform/http"
import { carriesNewSecret } from "@platform/idempotency"
import { oauthError, required, TOKEN_EXCHANGE } from "@platform/oauth"
import { Effect } from "effect"
import { authenticateClient, type OAuthClient } from "./OAuthClient.ts"
import { allowGrant } from "./clientGrants.ts"
import { FIRST_PARTY_APP_ID } from "../apps/AppId.ts"
import type { Grant } from "./TokenGrants.ts"

/** Token responses carry new secrets: never cached, and kept for replay 10 minutes only. */
export const noStoreNewSecret = Effect.zipRight(noStore, carriesNewSecret)

/** The client the request comes from, by its credentials in the Authorization header or the body. */
export const authenticate = (request: HttpServerRequest.HttpServerRequest, parameters: ReadonlyMap<string, string>) =>
  authenticateClient(request.headers["authorization"], parameters)

/** Runs the grant of grant_type; one the deployment knows but does not run is unsupported_grant_type. */
export const runGrant = (
  grants: ReadonlyMap<string, Grant>,
  grantType: string,
  client: OAuthClient,
  parameters: ReadonlyMap<string, string>
) => {
  const grant = grants.get(grantType)
  return grant === undefined
    ? Effect.fail(oauthError("unsupported_grant_type", `The grant ${grantType} is not available on this deployment yet.`))
    : grant.run(client, parameters)
}

/** Spec 1: "a token exchange may omit the client" — one with no client credentials at all is the first-party client's. */
const omitsClient = (grantType: string, authorization: string | undefined, parameters: ReadonlyMap<string, string>) =>
  grantType === TOKEN_EXCHANGE && authorization === undefined && !parameters.has("client_id") && !parameters.has("client_secret")

/**
 * The token endpoint once its body is read, in order: grant_type, the client, whether it may use
 * that grant, then the grant. A request refused before the grant leaves its code or token untouched.
 */
export const answerTokenRequest = (
  grants: ReadonlyMap<string, Grant>,
  authorization: string | undefined,
  parameters: ReadonlyMap<string, string>
) =>
  Effect.gen(function*() {
    const grantType = yield* required(parameters, "grant_type")
    const client: OAuthClient = omitsClient(grantType, authorization, parameters)
      ? { kind: "first_party", clientId: FIRST_PARTY_APP_ID }
      : yield* authenticateClient(authorization, parameters)
    yield* allowGrant(client, grantType)
    return yield* runGrant(grants, grantType, client, parameters)
  })
