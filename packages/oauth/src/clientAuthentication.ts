import { parseBasic } from "@platform/auth"
import { Effect } from "effect"
import { type OAuthError, oauthError } from "./OAuthError.ts"

/** How a confidential client proved its secret (RFC 6749 §2.3.1; the names of RFC 7591 §2). */
export type SecretMethod = "client_secret_basic" | "client_secret_post"

/** The client an OAuth request comes from: one of the public clients (no secret), or one that proved its secret. */
export type AuthenticatedClient<Public extends string, Verified = void> =
  | { readonly kind: "public"; readonly clientId: Public }
  | { readonly kind: "confidential"; readonly clientId: string; readonly method: SecretMethod; readonly verified: Verified }

/** What the service decides: which clients are public, and how a confidential client's secret is checked. */
export interface ClientAuthenticationPolicy<Public extends string, R, Verified = void> {
  /** Client ids that send their client_id and no secret. */
  readonly publicClients: ReadonlyArray<Public>
  /**
   * Checks a confidential client's id and secret; fails with the OAuth error to answer
   * (`invalidClient()` for an unknown client or a wrong secret, so both read the same). What it
   * answers is handed back as `verified`: a check can read what the request needs in the same statement.
   */
  readonly verifySecret: (clientId: string, secret: string) => Effect.Effect<Verified, OAuthError, R>
}

/** Unknown client or a failed authentication: one answer for both (RFC 6749 §5.2). */
export const invalidClient = () => oauthError("invalid_client", "Unknown client, or the client authentication failed.")

/**
 * Client authentication at the token, revocation and introspection endpoints:
 * HTTP Basic id:secret, or client_id plus client_secret in the body, never both;
 * a body client_id must agree with Basic. Public clients send their client_id and
 * no secret; any other client without a secret is answered like an unknown one.
 */
export const authenticateClient = <Public extends string, R, Verified = void>(
  policy: ClientAuthenticationPolicy<Public, R, Verified>,
  authorization: string | undefined,
  parameters: ReadonlyMap<string, string>
): Effect.Effect<AuthenticatedClient<Public, Verified>, OAuthError, R> =>
  Effect.gen(function*() {
    const bodyId = parameters.get("client_id")
    const bodySecret = parameters.get("client_secret")
    if (authorization !== undefined) {
      if (bodySecret !== undefined) {
        return yield* oauthError("invalid_request", "Send the client secret either in Basic or in the body, not both.")
      }
      const basic = parseBasic(authorization)
      if (basic === undefined) return yield* invalidClient()
      if (bodyId !== undefined && bodyId !== basic.clientId) {
        return yield* oauthError("invalid_client", "The body's client_id differs from the Basic credentials.")
      }
      const verified = yield* policy.verifySecret(basic.clientId, basic.secret)
      return { kind: "confidential", clientId: basic.clientId, method: "client_secret_basic", verified } as const
    }
    if (bodyId === undefined || bodyId === "") return yield* oauthError("invalid_request", "Parameter client_id is missing.")
    if (bodySecret !== undefined) {
      const verified = yield* policy.verifySecret(bodyId, bodySecret)
      return { kind: "confidential", clientId: bodyId, method: "client_secret_post", verified } as const
    }
    const publicClient = policy.publicClients.find((id) => id === bodyId)
    if (publicClient !== undefined) return { kind: "public", clientId: publicClient } as const
    return yield* invalidClient()
  })

/**
 * For endpoints only one public client may call (device authorization): its
 * client_id, no secret. Any client authentication, or another client, is
 * invalid_client.
 */
export const requirePublicClient = (
  clientId: string,
  authorization: string | undefined,
  parameters: ReadonlyMap<string, string>
): Effect.Effect<void, OAuthError> => {
  if (authorization !== undefined || parameters.has("client_secret")) return Effect.fail(invalidClient())
  const sent = parameters.get("client_id")
  if (sent === undefined) return Effect.fail(oauthError("invalid_request", "Parameter client_id is missing."))
  return sent === clientId ? Effect.void : Effect.fail(invalidClient())
}
