import { type OAuthError, oauthError } from "@platform/http"
import { Effect } from "effect"
import { FIRST_PARTY_CLIENT_ID } from "../auth/AccessTokens.ts"

const unknownClient = () => oauthError("invalid_client", "Unknown client, or the client authentication failed.")

/**
 * For endpoints only the first-party public client may call (device
 * authorization): client_id `accounts`, no secret. Any client authentication,
 * or another client, is invalid_client. The token, revocation and
 * introspection endpoints resolve every client instead (OAuthClient.ts).
 */
export const requireFirstPartyClient = (
  authorization: string | undefined,
  parameters: ReadonlyMap<string, string>
): Effect.Effect<void, OAuthError> => {
  if (authorization !== undefined || parameters.has("client_secret")) return Effect.fail(unknownClient())
  const clientId = parameters.get("client_id")
  if (clientId === undefined) return Effect.fail(oauthError("invalid_request", "Parameter client_id is missing."))
  return clientId === FIRST_PARTY_CLIENT_ID ? Effect.void : Effect.fail(unknownClient())
}
