import { Schema } from "effect"
import { AppAccount } from "./AppAccount.ts"

/** The Token response of spec 1 for an app (and the client developer): the account as the app sees it. */
export const AppTokenResponse = Schema.Struct({
  access_token: Schema.String.annotations({ description: "EdDSA JWT, typ at+jwt, aud the app id" }),
  token_type: Schema.Literal("Bearer"),
  expires_in: Schema.Int,
  refresh_token: Schema.String,
  refresh_token_expires_at: Schema.String.annotations({
    description: "900 days from the sign-in; refreshing does not extend it"
  }),
  scope: Schema.String,
  id_token: Schema.optional(Schema.String).annotations({ description: "When openid was granted" }),
  membership_id: Schema.String.annotations({ description: "<app_id>:<uuid>" }),
  account: AppAccount
}).annotations({ identifier: "AppTokenResponse" })
export type AppTokenResponse = typeof AppTokenResponse.Type
