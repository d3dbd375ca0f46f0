import { strict } from "@platform/http"
import { Schema } from "effect"

export const IDENTITY_TTL_DEFAULT_SECONDS = 300
export const MAX_IDENTITY_AUDIENCES = 20

const Audience = Schema.String.pipe(
  Schema.minLength(1, { message: () => "must be 1 to 400 characters" }),
  Schema.maxLength(400, { message: () => "must be 1 to 400 characters" }),
  Schema.pattern(/^[^\p{Cc}]*$/u, { message: () => "must not contain control characters" })
)

export const NewIdentityToken = strict(Schema.Struct({
  audience: Audience.annotations({ description: "One of the Silicon's identity audiences" }),
  ttl_seconds: Schema.optional(
    Schema.Int.pipe(Schema.between(60, 3600, { message: () => "must be a whole number from 60 to 3600" }))
  ).annotations({ description: `Lifetime in seconds, 60 to 3600; default ${IDENTITY_TTL_DEFAULT_SECONDS}` })
})).annotations({ identifier: "NewIdentityToken" })

export const IdentityToken = Schema.Struct({
  identity_token: Schema.String.annotations({
    description: "RS256 JWT: iss, sub (the Silicon's uuid), aud, iat, exp, jti, token_use identity, silicon_id"
  }),
  audience: Schema.String,
  subject: Schema.String.annotations({ description: "The Silicon's uuid (the token's sub)" }),
  jti: Schema.String,
  kid: Schema.String.annotations({ description: "The signing key, published in /.well-known/jwks.json" }),
  expires_at: Schema.String.annotations({ description: "RFC 3339 UTC with milliseconds" })
}).annotations({ identifier: "IdentityToken" })
export type IdentityToken = typeof IdentityToken.Type

export const IdentityAudiencesInput = strict(Schema.Struct({
  audiences: Schema.Array(Audience).pipe(
    Schema.maxItems(MAX_IDENTITY_AUDIENCES, { message: () => `must hold at most ${MAX_IDENTITY_AUDIENCES} audiences` })
  )
})).annotations({ identifier: "IdentityAudiencesInput" })

export const IdentityAudiences = Schema.Struct({
  audiences: Schema.Array(Schema.String).annotations({ description: "In the order given, duplicates removed" })
}).annotations({ identifier: "IdentityAudiences" })
