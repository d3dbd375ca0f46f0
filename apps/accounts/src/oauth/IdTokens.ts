import { SigningKeys } from "@platform/signing-keys"
import { Duration, Effect } from "effect"
import { createHash } from "node:crypto"
import { ACCESS_TOKEN_LIFETIME } from "./AccessTokens.ts"
import { AccountsConfig } from "../config.ts"
import { epochSeconds } from "@platform/service"

/**
 * OpenID Connect Core §3.1.3.6: the left half of the hash of the access
 * token, with the hash of the JWS alg. For EdDSA over Ed25519 that hash is
 * SHA-512 (as oauth4webapi and the OpenID errata read it).
 */
export const atHash = (accessToken: string): string =>
  createHash("sha512").update(accessToken).digest().subarray(0, 32).toString("base64url")

export interface IdTokenInput {
  readonly accountUuid: string
  readonly appId: string
  readonly authTime: Date
  readonly nonce: string | null
  readonly accessToken: string
  readonly now: Date
}

/** ID tokens: EdDSA with the service's Ed25519 key, as long-lived as the access token they come with. */
export class IdTokens extends Effect.Service<IdTokens>()("accounts/IdTokens", {
  effect: Effect.gen(function*() {
    const keys = yield* SigningKeys
    const { publicUrl } = yield* AccountsConfig

    const issue = (input: IdTokenInput): Effect.Effect<string> => {
      const iat = epochSeconds(input.now)
      return keys.signJwt("EdDSA", {
        iss: publicUrl,
        sub: input.accountUuid,
        aud: input.appId,
        azp: input.appId,
        iat,
        exp: iat + Duration.toSeconds(ACCESS_TOKEN_LIFETIME),
        auth_time: epochSeconds(input.authTime),
        ...(input.nonce === null ? {} : { nonce: input.nonce }),
        at_hash: atHash(input.accessToken)
      }, { typ: "JWT" })
    }

    return { issue } as const
  })
}) {}
