import { type OAuthError, oauthError } from "@platform/http"
import { Effect } from "effect"
import { AppCredentials } from "../apps/AppCredentials.ts"
import { DEVELOPER_APP_ID, FIRST_PARTY_APP_ID } from "../apps/AppId.ts"
import { parseBasic } from "@platform/auth"

/**
 * The client an OAuth request comes from: one of the two public clients
 * (no secret), or an app that proved its secret.
 */
export type OAuthClient =
  | { readonly kind: "first_party"; readonly clientId: typeof FIRST_PARTY_APP_ID }
  | { readonly kind: "developer"; readonly clientId: typeof DEVELOPER_APP_ID }
  | { readonly kind: "app"; readonly clientId: string }

const failedAuthentication = () => oauthError("invalid_client", "Unknown client, or the client authentication failed.")

/**
 * Client authentication at the token, revocation and introspection
 * endpoints (spec 1, POST /v1/oauth/token): HTTP Basic app_id:app_secret, or
 * client_id plus client_secret in the body, never both; a body client_id must
 * agree with Basic. Public clients send their client_id and no secret.
 */
export const authenticateClient = (
  authorization: string | undefined,
  parameters: ReadonlyMap<string, string>
): Effect.Effect<OAuthClient, OAuthError, AppCredentials> =>
  Effect.gen(function*() {
    const bodyId = parameters.get("client_id")
    const bodySecret = parameters.get("client_secret")
    if (authorization !== undefined) {
      if (bodySecret !== undefined) {
        return yield* oauthError("invalid_request", "Send the client secret either in Basic or in the body, not both.")
      }
      const basic = parseBasic(authorization)
      if (basic === undefined) return yield* failedAuthentication()
      if (bodyId !== undefined && bodyId !== basic.clientId) {
        return yield* oauthError("invalid_client", "The body's client_id differs from the Basic credentials.")
      }
      return yield* confidential(basic.clientId, basic.secret)
    }
    if (bodyId === undefined || bodyId === "") return yield* oauthError("invalid_request", "Parameter client_id is missing.")
    if (bodySecret !== undefined) return yield* confidential(bodyId, bodySecret)
    if (bodyId === FIRST_PARTY_APP_ID) return { kind: "first_party", clientId: FIRST_PARTY_APP_ID } as const
    if (bodyId === DEVELOPER_APP_ID) return { kind: "developer", clientId: DEVELOPER_APP_ID } as const
    // An app that sends no secret gets the same answer as an unknown client.
    return yield* failedAuthentication()
  })

const confidential = (clientId: string, secret: string) =>
  Effect.flatMap(AppCredentials, (credentials) =>
    credentials.verify(clientId, secret).pipe(
      Effect.mapError((refused) =>
        refused._tag === "AppDisabled"
          ? oauthError("invalid_client", "This app is disabled.")
          : failedAuthentication()
      ),
      Effect.as<OAuthClient>({ kind: "app", clientId })
    ))
