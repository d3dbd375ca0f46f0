import { Schema } from "effect"
import { AppAccount, appAccount, scopeSet } from "../oauth/AppAccount.ts"
import type { AppAccountRow } from "../oauth/AppAccountsRepo.ts"
import { epochSeconds } from "@platform/service"

/**
 * The userinfo answer: the account as the app sees it beside the standard
 * OpenID claims for the same scopes. `updated_at` is OpenID's, in seconds;
 * standard claims without a value are left out (OpenID Connect Core §5.3.2).
 */
export const UserInfo = Schema.Struct({
  ...AppAccount.fields,
  sub: Schema.String,
  name: Schema.String,
  picture: Schema.String.annotations({ description: "pfp_url: the photo, or the account's default picture" }),
  updated_at: Schema.Int.annotations({ description: "Seconds since the epoch (OpenID Connect)" }),
  phone_number: Schema.optional(Schema.String),
  phone_number_verified: Schema.optional(Schema.Boolean),
  birthdate: Schema.optional(Schema.String),
  zoneinfo: Schema.optional(Schema.String)
}).annotations({ identifier: "UserInfo" })
export type UserInfo = typeof UserInfo.Type

export const userInfo = (row: AppAccountRow, appId: string, scope: string, publicUrl: string): UserInfo => {
  const scopes = scopeSet(scope)
  const carbon = row.kind === "carbon"
  const account = appAccount(row, appId, scope, publicUrl)
  return {
    ...account,
    sub: row.uuid,
    name: row.display_name,
    picture: account.pfp_url,
    updated_at: epochSeconds(row.updated_at),
    // email and email_verified are the account's own fields, which already bear the OpenID names.
    ...(carbon && scopes.has("phone") && row.phone !== null ? { phone_number: row.phone, phone_number_verified: true } : {}),
    ...(scopes.has("dob") && row.dob !== null ? { birthdate: row.dob } : {}),
    ...(scopes.has("timezone") ? { zoneinfo: row.timezone } : {})
  }
}
