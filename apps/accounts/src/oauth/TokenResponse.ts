import { Schema } from "effect"
import { AccountMe } from "../accounts/Me.ts"

/** The Token response of spec 1, first-party audience: the account is the caller's own view. */
export const TokenResponse = Schema.Struct({
  access_token: Schema.String,
  token_type: Schema.Literal("Bearer"),
  expires_in: Schema.Int,
  refresh_token: Schema.String,
  refresh_token_expires_at: Schema.String.annotations({
    description: "900 days from the sign-in; refreshing does not extend it"
  }),
  scope: Schema.String,
  membership_id: Schema.String.annotations({
    description: "<app_id>:<uuid>; for first-party sign-ins the app is the first-party client, accounts"
  }),
  account: AccountMe,
  issued_token_type: Schema.optional(Schema.Literal("urn:ietf:params:oauth:token-type:access_token")).annotations({
    description: "Token exchange only (RFC 8693 §2.2.1)"
  })
}).annotations({ identifier: "TokenResponse" })
export type TokenResponse = typeof TokenResponse.Type
