import { SigningKeys } from "@platform/signing-keys"
import { Duration, Effect } from "effect"
import { createHash } from "node:crypto"
import { ACCESS_TOKEN_LIFETIME } from "./AccessTokens.ts"
import { AccountsConfig } from "../config.ts"
import { epochSeconds } from "@platform/service"
import type { IdTokenSigningAlg } from "../apps/AppRecord.ts"

/**
 * OpenID Connect Core §3.1.3.6: the left half of the hash of the access
 * token, with the hash of the JWS alg: SHA-256 for RS256; for EdDSA over
 * Ed25519, SHA-512 (as oauth4webapi and the OpenID errata read it).
 */
export const atHash = (accessToken: string, alg: IdTokenSigningAlg = "EdDSA"): string => {
  const digest = createHash(alg === "RS256" ? "sha256" : "sha512").update(accessToken).digest()
  return digest.subarray(0, digest.length / 2).toString("base64url")
}

export interface IdTokenInput {
  readonly accountUuid: string
  readonly appId: string
  readonly authTime: Date
  readonly nonce: string | null
  readonly accessToken: string
  readonly now: Date
  /** The app's id_token_signed_response_alg. */
  readonly alg: IdTokenSigningAlg
}

/**
 * ID tokens, as long-lived as the access token they come with: EdDSA with the service's Ed25519 key,
 * or RS256 with its RSA key for an app that chose it.
 */
export class IdTokens extends Effect.Service<IdTokens>()("accounts/IdTokens", {
  effect: Effect.gen(function*() {
    const keys = yield* SigningKeys
    const { publicUrl } = yield* AccountsConfig

    const issue = (input: IdTokenInput): Effect.Effect<string> => {
      const iat = epochSeconds(input.now)
      return keys.signJwt(input.alg, {
        iss: publicUrl,
        sub: input.accountUuid,
        aud: input.appId,
        azp: input.appId,
        iat,
        exp: iat + Duration.toSeconds(ACCESS_TOKEN_LIFETIME),
        auth_time: epochSeconds(input.authTime),
        ...(input.nonce === null ? {} : { nonce: input.nonce }),
        at_hash: atHash(input.accessToken, input.alg)
      }, { typ: "JWT" })
    }

    return { issue } as const
  })
}) {}
