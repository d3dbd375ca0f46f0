import { SqlClient } from "@effect/sql"
import { randomToken, sha256Hex } from "@platform/crypto"
import { columnsOf } from "@platform/database"
import { Data, Duration, Effect, Option, Schema } from "effect"
import { DeviceCodeRow } from "./DeviceCodeRow.ts"
import {
  DEVICE_CODE_LIFETIME,
  DEVICE_CODE_PREFIX,
  DEVICE_CODE_RETENTION,
  POLL_INTERVAL_SECONDS,
  POLL_TOLERANCE,
  SLOW_DOWN_STEP_SECONDS
} from "./policy.ts"
import { randomUserCode } from "./userCode.ts"

/** Fresh user codes tried before giving up; with ~1.7e10 codes a second try is already rare. */
const USER_CODE_ATTEMPTS = 5

export interface NewDeviceCode {
  readonly clientId: string
  readonly clientLabel: string | null
  readonly now: Date
}

export interface IssuedDeviceCode {
  readonly deviceCode: string
  /** Stored form: 8 letters, no dash. */
  readonly userCode: string
  readonly expiresAt: Date
  readonly intervalSeconds: number
}

/** What one poll of the token endpoint found (RFC 8628 §3.5). */
export type PollOutcome = Data.TaggedEnum<{
  Unknown: {}
  Pending: {}
  SlowDown: { readonly intervalSeconds: number }
  Denied: {}
  Expired: {}
  /** Its tokens were handed out already. */
  Used: {}
  /** Approved: the code is now used, and this poll's caller alone gets the tokens. */
  Approved: { readonly accountUuid: string; readonly clientLabel: string | null }
}>
export const PollOutcome = Data.taggedEnum<PollOutcome>()

export type Decision = "approved" | "denied"

export type DecideOutcome = Data.TaggedEnum<{
  Decided: { readonly row: DeviceCodeRow }
  /** No request has this user code (never issued, or swept 7 days after it expired). */
  NotFound: {}
  /** The request's 600 seconds have passed. */
  Expired: {}
  AlreadyDecided: { readonly status: Decision }
}>
export const DecideOutcome = Data.taggedEnum<DecideOutcome>()

const decodeRows = Schema.decodeUnknown(Schema.Array(DeviceCodeRow))
const DEVICE_CODE_COLUMNS = columnsOf(DeviceCodeRow.fields)
const firstRow = (rows: unknown) => Effect.map(Effect.orDie(decodeRows(rows)), (decoded) => Option.fromNullable(decoded[0]))

const plus = (at: Date, duration: Duration.DurationInput) => new Date(at.getTime() + Duration.toMillis(duration))

/** Whether a poll at `now` comes before the device code's interval has passed since the last one. */
const tooSoon = (row: DeviceCodeRow, now: Date): boolean =>
  row.last_polled_at !== null &&
  now.getTime() - row.last_polled_at.getTime() < row.interval_seconds * 1000 - Duration.toMillis(POLL_TOLERANCE)

/**
 * Device authorization requests: issued to a device, decided by a Carbon, collected once by polling.
 *
 * Database failures: SqlError is a defect (no caller can act on one).
 */
export class DeviceCodesRepo extends Effect.Service<DeviceCodesRepo>()("accounts/DeviceCodesRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const create = (input: NewDeviceCode): Effect.Effect<IssuedDeviceCode> =>
      Effect.gen(function*() {
        const deviceCode = randomToken(DEVICE_CODE_PREFIX)
        const expiresAt = plus(input.now, DEVICE_CODE_LIFETIME)
        for (let attempt = 0; attempt < USER_CODE_ATTEMPTS; attempt++) {
          const userCode = randomUserCode()
          const inserted = yield* sql`
            INSERT INTO device_codes
              (device_code_hash, user_code, client_id, client_label, status, interval_seconds, created_at, expires_at)
            VALUES (${sha256Hex(deviceCode)}, ${userCode}, ${input.clientId}, ${input.clientLabel}, 'pending',
                    ${POLL_INTERVAL_SECONDS}, ${input.now}, ${expiresAt})
            ON CONFLICT (user_code) DO NOTHING
            RETURNING user_code
          `
          if (inserted.length > 0) return { deviceCode, userCode, expiresAt, intervalSeconds: POLL_INTERVAL_SECONDS }
        }
        return yield* Effect.dieMessage(`no free user code after ${USER_CODE_ATTEMPTS} attempts`)
      }).pipe(Effect.orDie, Effect.withSpan("DeviceCodesRepo.create"))

    /**
     * One poll by `clientId`. The row is locked for the poll, so of two concurrent polls of an
     * approved code exactly one sees it approved (and marks it used); the other sees it used.
     */
    const poll = (deviceCode: string, clientId: string, now: Date): Effect.Effect<PollOutcome> =>
      sql.withTransaction(Effect.gen(function*() {
        const found = yield* firstRow(
          yield* sql`SELECT ${sql.literal(DEVICE_CODE_COLUMNS)} FROM device_codes WHERE device_code_hash = ${sha256Hex(deviceCode)} FOR UPDATE`
        )
        if (Option.isNone(found) || found.value.client_id !== clientId) return PollOutcome.Unknown()
        const row = found.value
        if (row.status === "used") return PollOutcome.Used()
        if (row.expires_at.getTime() <= now.getTime()) return PollOutcome.Expired()
        switch (row.status) {
          case "denied":
            return PollOutcome.Denied()
          case "approved": {
            if (row.account_uuid === null) return yield* Effect.dieMessage("an approved device code names no account")
            yield* sql`UPDATE device_codes SET status = 'used', used_at = ${now} WHERE device_code_hash = ${row.device_code_hash}`
            return PollOutcome.Approved({ accountUuid: row.account_uuid, clientLabel: row.client_label })
          }
          case "pending": {
            if (tooSoon(row, now)) {
              const intervalSeconds = row.interval_seconds + SLOW_DOWN_STEP_SECONDS
              yield* sql`
                UPDATE device_codes SET interval_seconds = ${intervalSeconds}, last_polled_at = ${now}
                WHERE device_code_hash = ${row.device_code_hash}
              `
              return PollOutcome.SlowDown({ intervalSeconds })
            }
            yield* sql`UPDATE device_codes SET last_polled_at = ${now} WHERE device_code_hash = ${row.device_code_hash}`
            return PollOutcome.Pending()
          }
        }
      })).pipe(Effect.orDie, Effect.withSpan("DeviceCodesRepo.poll"))

    /**
     * The request a user code names, expired or not, until the sweep deletes it; `userCode` in stored
     * form. User codes are unique across the table, so an expired request's code names only it.
     */
    const find = (userCode: string): Effect.Effect<Option.Option<DeviceCodeRow>> =>
      Effect.flatMap(
        Effect.orDie(sql`SELECT ${sql.literal(DEVICE_CODE_COLUMNS)} FROM device_codes WHERE user_code = ${userCode}`),
        firstRow
      )

    /** Approves or denies a pending request for `accountUuid`; a request is decided once. */
    const decide = (
      userCode: string,
      decision: Decision,
      accountUuid: string,
      now: Date
    ): Effect.Effect<DecideOutcome> =>
      Effect.gen(function*() {
        const decided = yield* firstRow(
          yield* sql`
            UPDATE device_codes SET status = ${decision}, account_uuid = ${accountUuid}, decided_at = ${now}
            WHERE user_code = ${userCode} AND status = 'pending' AND expires_at > ${now}
            RETURNING ${sql.literal(DEVICE_CODE_COLUMNS)}
          `
        )
        if (Option.isSome(decided)) return DecideOutcome.Decided({ row: decided.value })
        const found = yield* find(userCode)
        if (Option.isNone(found)) return DecideOutcome.NotFound()
        if (found.value.expires_at.getTime() <= now.getTime()) return DecideOutcome.Expired()
        return DecideOutcome.AlreadyDecided({ status: found.value.status === "denied" ? "denied" : "approved" })
      }).pipe(Effect.orDie, Effect.withSpan("DeviceCodesRepo.decide"))

    /** Deletes requests that expired more than 7 days before `now`; returns how many went. */
    const sweep = (now: Date): Effect.Effect<number> => {
      const cutoff = new Date(now.getTime() - Duration.toMillis(DEVICE_CODE_RETENTION))
      return sql`DELETE FROM device_codes WHERE expires_at < ${cutoff} RETURNING user_code`.pipe(
        Effect.orDie,
        Effect.map((rows) => rows.length)
      )
    }

    return { create, poll, find, decide, sweep } as const
  })
}) {}
