import { SqlClient } from "@effect/sql"
import { rowsDecoder } from "@platform/database"
import { Effect, Option, Schema } from "effect"
import type { AccountId } from "../accounts/AccountId.ts"
import { SummaryRow } from "../accounts/AccountSummary.ts"
import { isUuidShaped } from "../accounts/uuidPermutation.ts"
import { APP_ACCOUNT_COLUMNS, appAccountJoins, AppAccountRow } from "../oauth/AppAccountsRepo.ts"

/** How a lookup names the account: its uuid, or its id. */
export type LookupKey = { readonly uuid: string } | { readonly id: AccountId }

const MemberRow = Schema.Struct({ ...AppAccountRow.fields, scopes: Schema.Array(Schema.String) })
export type MemberRow = typeof MemberRow.Type
const decodeMembers = rowsDecoder(MemberRow)
const decodeSummaries = rowsDecoder(SummaryRow)

/**
 * One statement per lookup: the account as an app may see it (a live membership, the scopes it
 * granted), or the public summary another account sees. Deleted accounts are never found.
 *
 * Database failures: SqlError is a defect (no caller can act on one).
 */
export class LookupsRepo extends Effect.Service<LookupsRepo>()("accounts/LookupsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const where = (key: LookupKey) =>
      "uuid" in key ? sql`a.uuid = ${key.uuid}` : sql`a.handle = ${key.id.handle} AND a.kind = ${key.id.kind}`

    /** The account with the app's live (active or imported) membership; none otherwise. */
    const forApp = (appId: string, key: LookupKey): Effect.Effect<Option.Option<MemberRow>> =>
      "uuid" in key && !isUuidShaped(key.uuid) ? Effect.succeed(Option.none()) : sql`
        SELECT ${sql.literal(APP_ACCOUNT_COLUMNS)}, m.scopes
        FROM accounts a ${appAccountJoins(sql, appId)}
        WHERE ${where(key)} AND a.status <> 'deleted' AND m.status IN ('active', 'imported')
      `.pipe(Effect.flatMap(decodeMembers), Effect.orDie, Effect.map((rows) => Option.fromNullable(rows[0])))

    /** The account's public summary; none when deleted or unknown. */
    const forAccount = (key: LookupKey): Effect.Effect<Option.Option<SummaryRow>> =>
      "uuid" in key && !isUuidShaped(key.uuid) ? Effect.succeed(Option.none()) : sql`
        SELECT a.uuid, a.kind, a.handle, a.display_name, a.pfp_url, a.status FROM accounts a
        WHERE ${where(key)} AND a.status <> 'deleted'
      `.pipe(Effect.flatMap(decodeSummaries), Effect.orDie, Effect.map((rows) => Option.fromNullable(rows[0])))

    return { forApp, forAccount } as const
  })
}) {}
