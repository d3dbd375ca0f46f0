import { Schema } from "effect"
import { AppAccount } from "./AppAccount.ts"
import { TokenResponse } from "./TokenResponse.ts"

const { account: _firstPartyAccount, ...tokenFields } = TokenResponse.fields

/** The Token response of spec 1 for an app (and the client developer): the account as the app sees it. */
export const AppTokenResponse = Schema.Struct({
  ...tokenFields,
  access_token: Schema.String.annotations({ description: "EdDSA JWT, typ at+jwt, aud the app id" }),
  id_token: Schema.optional(Schema.String).annotations({ description: "When openid was granted" }),
  membership_id: Schema.String.annotations({ description: "<app_id>:<uuid>" }),
  account: AppAccount
}).annotations({ identifier: "AppTokenResponse" })
export type AppTokenResponse = typeof AppTokenResponse.Type
