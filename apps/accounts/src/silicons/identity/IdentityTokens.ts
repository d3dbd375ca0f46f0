import { randomToken } from "@platform/crypto"
import { SigningKeys } from "@platform/signing-keys"
import { Effect } from "effect"
import * as jose from "jose"
import { accountIdOf } from "../../accounts/AccountRow.ts"
import { AccountsConfig } from "../../config.ts"
import { epochSeconds, now } from "@platform/service"
import { AudienceNotAllowed } from "../errors.ts"
import type { SiliconRow } from "../SiliconRow.ts"
import type { IdentityToken } from "./IdentityToken.ts"

/**
 * Identity tokens a Silicon hands to a cloud provider (spec 1): RS256 JWTs
 * for one of the audiences its custodian allowed, token_use identity, so
 * that they never pass as bearer tokens here.
 */
export class IdentityTokens extends Effect.Service<IdentityTokens>()("accounts/IdentityTokens", {
  effect: Effect.gen(function*() {
    const keys = yield* SigningKeys
    const { publicUrl } = yield* AccountsConfig

    const issue = (silicon: SiliconRow, audience: string, ttlSeconds: number) =>
      Effect.gen(function*() {
        if (!silicon.identity_audiences.includes(audience)) {
          return yield* new AudienceNotAllowed({
            message: "This audience is not among the Silicon's identity audiences.",
            hint: "The Silicon's custodian sets them with PUT /v1/silicons/{id}/identity-audiences."
          })
        }
        const at = yield* now
        const iat = epochSeconds(at)
        const exp = iat + ttlSeconds
        const jti = randomToken("idt_", 16)
        const token = yield* keys.signJwt("RS256", {
          iss: publicUrl,
          sub: silicon.uuid,
          aud: audience,
          iat,
          exp,
          jti,
          token_use: "identity",
          silicon_id: accountIdOf(silicon)
        }, { typ: "JWT" })
        const { kid } = jose.decodeProtectedHeader(token)
        const issued: IdentityToken = {
          identity_token: token,
          audience,
          subject: silicon.uuid,
          jti,
          kid: kid ?? "",
          expires_at: new Date(exp * 1000).toISOString()
        }
        return issued
      }).pipe(Effect.withSpan("IdentityTokens.issue"))

    return { issue } as const
  })
}) {}
