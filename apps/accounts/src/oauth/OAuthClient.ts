import { authenticateClient as authenticateOAuthClient, invalidClient, type OAuthError, oauthError } from "@platform/oauth"
import { Effect } from "effect"
import { AppCredentials } from "../apps/AppCredentials.ts"
import { DEVELOPER_APP_ID, FIRST_PARTY_APP_ID } from "../apps/AppId.ts"

/**
 * The client an OAuth request comes from: one of the two public clients
 * (no secret), or an app that proved its secret.
 */
export type OAuthClient =
  | { readonly kind: "first_party"; readonly clientId: typeof FIRST_PARTY_APP_ID }
  | { readonly kind: "developer"; readonly clientId: typeof DEVELOPER_APP_ID }
  | { readonly kind: "app"; readonly clientId: string }

const PUBLIC_CLIENTS = [FIRST_PARTY_APP_ID, DEVELOPER_APP_ID] as const

const verifyAppSecret = (appId: string, secret: string) =>
  Effect.flatMap(AppCredentials, (credentials) =>
    credentials.verify(appId, secret).pipe(
      Effect.mapError((refused) =>
        refused._tag === "AppDisabled" ? oauthError("invalid_client", "This app is disabled.") : invalidClient()
      ),
      Effect.asVoid
    ))

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
  authenticateOAuthClient({ publicClients: PUBLIC_CLIENTS, verifySecret: verifyAppSecret }, authorization, parameters).pipe(
    Effect.map((client): OAuthClient =>
      client.kind === "confidential"
        ? { kind: "app", clientId: client.clientId }
        : client.clientId === FIRST_PARTY_APP_ID
        ? { kind: "first_party", clientId: client.clientId }
        : { kind: "developer", clientId: client.clientId }
    )
  )
