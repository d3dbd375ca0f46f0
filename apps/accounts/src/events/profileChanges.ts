import type { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { rowsDecoder } from "@platform/database"
import { now } from "@platform/service"
import { Effect, Schema } from "effect"
import { PROFILE_FIELDS } from "./AccountEvent.ts"
import type { EventWriter } from "./EventWriter.ts"
import { publishEvent } from "./publishEvent.ts"

/** The values behind the fields `account.updated` reports, as comparable text. */
const ProfileSnapshot = Schema.Struct({
  updated_at: Schema.DateFromSelf,
  display_name: Schema.String,
  pfp_url: Schema.NullOr(Schema.String),
  timezone: Schema.String,
  dob: Schema.NullOr(Schema.String),
  email: Schema.NullOr(Schema.String),
  phone: Schema.NullOr(Schema.String),
  custodian: Schema.NullOr(Schema.String)
})

const decodeSnapshots = rowsDecoder(ProfileSnapshot)

const snapshot = (sql: SqlClient.SqlClient, accountUuid: string) =>
  sql`
    SELECT a.updated_at, a.display_name, a.pfp_url, a.timezone, a.dob::text AS dob,
      (SELECT e.address FROM account_emails e WHERE e.account_uuid = a.uuid AND e.is_primary) AS email,
      (SELECT p.address FROM account_phones p WHERE p.account_uuid = a.uuid AND p.is_primary) AS phone,
      s.custodian_uuid AS custodian
    FROM accounts a LEFT JOIN silicons s ON s.account_uuid = a.uuid
    WHERE a.uuid = ${accountUuid}
    FOR NO KEY UPDATE OF a
  `.pipe(Effect.flatMap(decodeSnapshots), Effect.orDie, Effect.map((rows) => rows[0]))

/**
 * Runs `change` in one transaction with the `account.updated` it causes: the fields apps may see
 * (display name, photo, timezone, dob, primary email and phone, custodian) are read before and
 * after, and those that differ are published. Any change that may touch them goes through here,
 * so no writer has to know which fields apps see. The account row is locked from the first read.
 *
 * Database failures: the transaction's own SqlError (begin, commit) is left to the caller, as `sql.withTransaction` does.
 */
export const reportingProfileChanges = <A, E, R>(
  events: EventWriter,
  accountUuid: string,
  change: Effect.Effect<A, E, R>
): Effect.Effect<A, E | SqlError, R> =>
  events.sql.withTransaction(Effect.gen(function*() {
    const before = yield* snapshot(events.sql, accountUuid)
    const result = yield* change
    const after = yield* snapshot(events.sql, accountUuid)
    if (before !== undefined && after !== undefined) {
      const changed = PROFILE_FIELDS.filter((field) => before[field] !== after[field])
      if (changed.length > 0) {
        // When the change moved updated_at, the event happened then (apps order by it); contact changes do not move it.
        const occurredAt = after.updated_at.getTime() !== before.updated_at.getTime() ? after.updated_at : yield* now
        yield* Effect.orDie(publishEvent(events, { type: "account.updated", changed, accountUuid, occurredAt }))
      }
    }
    return result
  }))
