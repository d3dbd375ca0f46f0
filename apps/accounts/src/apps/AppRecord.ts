import { AppStatus, IdTokenSigningAlg } from "@platform/accounts-identity-api"
import { Schema } from "effect"
import { AccountSummary, accountSummary, SummaryRow } from "../accounts/AccountSummary.ts"
import { SigninConfig } from "./signinConfig/SigninConfig.ts"

export const AppSource = Schema.Literal("registry_app", "fake", "first_party")
export type AppSource = typeof AppSource.Type
// The registry sync's contract (@platform/accounts-identity-api) names these two; accounts uses them throughout.
export { AppStatus, IdTokenSigningAlg } from "@platform/accounts-identity-api"

const Timestamp = Schema.String.annotations({ description: "RFC 3339 UTC with milliseconds" })

/** One `apps` row as the repository selects it, with its owner's summary (no member counts: what flows need). */
export const AppRow = Schema.Struct({
  app_id: Schema.String,
  name: Schema.String,
  description: Schema.NullOr(Schema.String),
  homepage_url: Schema.NullOr(Schema.String),
  logo_url: Schema.NullOr(Schema.String),
  logo_dark_url: Schema.NullOr(Schema.String),
  owner: Schema.NullOr(SummaryRow),
  status: AppStatus,
  source: AppSource,
  signin_config: SigninConfig,
  config_version: Schema.Number,
  id_token_signed_response_alg: IdTokenSigningAlg,
  webhook_url: Schema.NullOr(Schema.String),
  webhook_secret_set: Schema.Boolean,
  created_at: Schema.DateFromSelf,
  updated_at: Schema.DateFromSelf
})
export type AppRow = typeof AppRow.Type

/** An app row with its member counts, for the App record's `stats` and the owned-apps list. */
export const AppStatsRow = Schema.Struct({
  ...AppRow.fields,
  users: Schema.Number,
  active_last_30d: Schema.Number,
  imported_unclaimed: Schema.Number
})
export type AppStatsRow = typeof AppStatsRow.Type

/** The App record of spec 1 (GET /v1/apps/{app_id}); secrets are never in it. */
export const AppRecord = Schema.Struct({
  app_id: Schema.String,
  name: Schema.String,
  description: Schema.NullOr(Schema.String),
  homepage_url: Schema.NullOr(Schema.String),
  logo_url: Schema.NullOr(Schema.String).annotations({ description: "URL, inline data URLs allowed" }),
  logo_dark_url: Schema.NullOr(Schema.String).annotations({ description: "URL, inline data URLs allowed" }),
  owner: Schema.NullOr(AccountSummary),
  status: AppStatus,
  source: AppSource,
  created_at: Timestamp,
  updated_at: Timestamp,
  signin_config: SigninConfig,
  config_version: Schema.Int,
  id_token_signed_response_alg: IdTokenSigningAlg,
  webhook: Schema.Struct({ url: Schema.NullOr(Schema.String), secret_set: Schema.Boolean }),
  stats: Schema.Struct({
    users: Schema.Int.annotations({ description: "Live members: active or imported, account not deleted" }),
    active_last_30d: Schema.Int,
    imported_unclaimed: Schema.Int
  })
}).annotations({ identifier: "App" })
export type AppRecord = typeof AppRecord.Type

export const appRecord = (row: AppStatsRow, publicUrl: string): AppRecord => ({
  app_id: row.app_id,
  name: row.name,
  description: row.description,
  homepage_url: row.homepage_url,
  logo_url: row.logo_url,
  logo_dark_url: row.logo_dark_url,
  owner: row.owner === null ? null : accountSummary(row.owner, publicUrl),
  status: row.status,
  source: row.source,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
  signin_config: row.signin_config,
  config_version: row.config_version,
  id_token_signed_response_alg: row.id_token_signed_response_alg,
  webhook: { url: row.webhook_url, secret_set: row.webhook_secret_set },
  stats: { users: row.users, active_last_30d: row.active_last_30d, imported_unclaimed: row.imported_unclaimed }
})

/** An item of GET /v1/me/owned-apps. */
export const OwnedApp = Schema.Struct({
  app_id: Schema.String,
  name: Schema.String,
  logo_url: Schema.NullOr(Schema.String),
  status: AppStatus,
  source: AppSource,
  users: Schema.Int,
  created_at: Timestamp
}).annotations({ identifier: "OwnedApp" })

export const ownedApp = (row: AppStatsRow): typeof OwnedApp.Type => ({
  app_id: row.app_id,
  name: row.name,
  logo_url: row.logo_url,
  status: row.status,
  source: row.source,
  users: row.users,
  created_at: row.created_at.toISOString()
})
