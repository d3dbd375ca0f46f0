import { Schema } from "effect"
import { accountIdOf } from "../accounts/AccountRow.ts"
import { PFP_URL_DESCRIPTION, pfpUrlOf } from "../accounts/pfpUrl.ts"
import type { AppAccountRow } from "./AppAccountsRepo.ts"

const Timestamp = Schema.String.annotations({ description: "RFC 3339 UTC with milliseconds" })

/** The account as an app sees it, by the scopes granted (spec 1, "Account as an app sees it, by scope"). */
export const AppAccount = Schema.Struct({
  uuid: Schema.String,
  membership_id: Schema.String.annotations({ description: "<app_id>:<uuid>" }),
  kind: Schema.Literal("carbon", "silicon"),
  id: Schema.NullOr(Schema.String),
  display_name: Schema.String,
  pfp_url: Schema.String.annotations({ description: PFP_URL_DESCRIPTION }),
  updated_at: Timestamp,
  version: Schema.Int,
  custodian: Schema.optional(
    Schema.NullOr(Schema.Struct({ uuid: Schema.String, id: Schema.NullOr(Schema.String) }))
  ).annotations({ description: "Silicons only; null while pending" }),
  email: Schema.optional(Schema.NullOr(Schema.String)).annotations({ description: "scope email, Carbons only" }),
  email_verified: Schema.optional(Schema.Boolean),
  phone: Schema.optional(Schema.NullOr(Schema.String)).annotations({ description: "scope phone, Carbons only" }),
  phone_verified: Schema.optional(Schema.Boolean),
  dob: Schema.optional(Schema.NullOr(Schema.String)).annotations({ description: "scope dob, YYYY-MM-DD" }),
  timezone: Schema.optional(Schema.String).annotations({ description: "scope timezone, IANA name" })
}).annotations({ identifier: "AppAccount" })
export type AppAccount = typeof AppAccount.Type

export const scopeSet = (scope: string): ReadonlySet<string> => new Set(scope.split(" ").filter((s) => s !== ""))

export const membershipId = (appId: string, accountUuid: string) => `${appId}:${accountUuid}`

/**
 * Profile fields always; the others only for their granted scope (Silicons never carry email or phone).
 * `publicUrl`: the service's public origin, where an account without a photo finds its default picture.
 */
export const appAccount = (row: AppAccountRow, appId: string, scope: string, publicUrl: string): AppAccount => {
  const scopes = scopeSet(scope)
  const carbon = row.kind === "carbon"
  return {
    uuid: row.uuid,
    membership_id: membershipId(appId, row.uuid),
    kind: row.kind,
    id: accountIdOf(row),
    display_name: row.display_name,
    pfp_url: pfpUrlOf(publicUrl, row),
    updated_at: row.updated_at.toISOString(),
    version: row.version,
    ...(carbon ? {} : {
      custodian: row.custodian_uuid === null
        ? null
        : { uuid: row.custodian_uuid, id: accountIdOf({ kind: "carbon", handle: row.custodian_handle }) }
    }),
    ...(carbon && scopes.has("email") ? { email: row.email, email_verified: row.email !== null } : {}),
    ...(carbon && scopes.has("phone") ? { phone: row.phone, phone_verified: row.phone !== null } : {}),
    ...(scopes.has("dob") ? { dob: row.dob } : {}),
    ...(scopes.has("timezone") ? { timezone: row.timezone } : {})
  }
}
