import { Schema } from "effect"

/** What a login or a refresh answers (spec 2: the access and refresh tokens; the other fields are ours). */
export const CredentialPair = Schema.Struct({
  access_token: Schema.String.annotations({ description: "Opaque, 30 minutes; send as `Authorization: Bearer`" }),
  refresh_token: Schema.String.annotations({ description: "Opaque, single use: each refresh rotates it" }),
  token_type: Schema.Literal("Bearer"),
  expires_in: Schema.Number.annotations({ description: "Seconds until the access token expires (1800)" }),
  session_id: Schema.String,
  session_expires_at: Schema.String.annotations({ description: "The refresh family's absolute end (900 days after login)" })
}).annotations({ identifier: "CredentialPair" })
export type CredentialPair = typeof CredentialPair.Type
