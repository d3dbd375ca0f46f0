import { SqlClient } from "@effect/sql"
import { rowsDecoder } from "@platform/database"
import { randomUUID } from "node:crypto"
import { Duration, Effect, Option, Schema } from "effect"
import { type AccountVerificationRequest, RESPONSE_TIME_HOURS } from "./AccountVerificationRequest.ts"

const RequestRow = Schema.Struct({
  id: Schema.String,
  account_uuid: Schema.String,
  context_app: Schema.String,
  app_name: Schema.String,
  app_logo_url: Schema.NullOr(Schema.String),
  reason: Schema.String,
  status: Schema.Literal("pending", "approved", "rejected"),
  submitted_at: Schema.DateFromSelf,
  response_expected_by: Schema.DateFromSelf,
  reviewed_at: Schema.NullOr(Schema.DateFromSelf)
})
const decodeRequests = rowsDecoder(RequestRow)

const requestOf = (row: typeof RequestRow.Type): AccountVerificationRequest => ({
  request_id: row.id,
  account_uuid: row.account_uuid,
  context_app: { app_id: row.context_app, name: row.app_name, logo_url: row.app_logo_url },
  reason: row.reason,
  status: row.status,
  submitted_at: row.submitted_at.toISOString(),
  response_expected_by: row.response_expected_by.toISOString(),
  reviewed_at: row.reviewed_at?.toISOString() ?? null
})

/**
 * Account verification requests: one pending per account (a unique index), decided by the operators.
 *
 * Database failures: SqlError is a defect (no caller can act on one).
 */
export class AccountVerificationRepo extends Effect.Service<AccountVerificationRepo>()("accounts/AccountVerificationRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const select = sql`
      SELECT r.id, r.account_uuid, r.context_app, ap.name AS app_name, ap.logo_url AS app_logo_url, r.reason, r.status,
        r.submitted_at, r.response_expected_by, r.reviewed_at
      FROM account_verification_requests r JOIN apps ap ON ap.app_id = r.context_app
    `

    /** The account's newest request, whatever its app and status. */
    const newest = (accountUuid: string): Effect.Effect<Option.Option<AccountVerificationRequest>> =>
      sql`${select} WHERE r.account_uuid = ${accountUuid} ORDER BY r.submitted_at DESC, r.id DESC LIMIT 1`.pipe(
        Effect.orDie,
        Effect.flatMap(decodeRequests),
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), requestOf))
      )

    /** Files a request unless one is pending for the account: then that one, with created false. */
    const file = (input: { readonly accountUuid: string; readonly appId: string; readonly reason: string; readonly now: Date }) =>
      Effect.gen(function*() {
        const id = randomUUID()
        const expected = new Date(input.now.getTime() + Duration.toMillis(Duration.hours(RESPONSE_TIME_HOURS)))
        const inserted = yield* sql`
          INSERT INTO account_verification_requests (id, account_uuid, context_app, reason, status, submitted_at, response_expected_by)
          VALUES (${id}, ${input.accountUuid}, ${input.appId}, ${input.reason}, 'pending', ${input.now}, ${expected})
          ON CONFLICT (account_uuid) WHERE status = 'pending' DO NOTHING
          RETURNING id
        `.pipe(Effect.orDie)
        const rows = yield* sql`${select} WHERE r.account_uuid = ${input.accountUuid} AND r.status = 'pending'`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeRequests)
        )
        return { request: requestOf(rows[0]!), created: inserted.length === 1 }
      })

    return { newest, file } as const
  })
}) {}
