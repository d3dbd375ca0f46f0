import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Duration, Effect, Option, Schema } from "effect"
import type { AccountStatus } from "../accounts/AccountRow.ts"
import { AccountsRepo, HandleTaken } from "../accounts/AccountsRepo.ts"
import { violatedConstraint } from "../accounts/constraintViolation.ts"
import type { IdReserved } from "../accounts/errors.ts"
import { IdsRepo } from "../accounts/IdsRepo.ts"
import { isUuidShaped } from "../accounts/uuidPermutation.ts"
import { recordEvent } from "../events/recordEvent.ts"
import { type SiliconEnd, SILICON_COLUMNS, SILICON_FROM, SiliconRow } from "./SiliconRow.ts"
import { rowsDecoder } from "@platform/database"

/** A changed-away id stays reserved for its previous owner this long (spec 1, Lifetimes). */
export const ID_RESERVATION = Duration.days(10)

export interface NewSiliconRecord {
  readonly handle: string
  readonly displayName: string
  readonly timezone: string
  readonly pfpUrl: string | null
  readonly stkHash: string
  readonly webhookUrl: string | null
  /** Sealed with `sealSecret`; set exactly when webhookUrl is. */
  readonly webhookSecret: string | null
  /** The creating custodian (active at once), or null for a self-created Silicon waiting for one. */
  readonly custodianUuid: string | null
  readonly at: Date
}

/** Details a custodian (or the Silicon) may change; absent ones stay. */
export interface SiliconDetails {
  readonly displayName?: string | undefined
  readonly timezone?: string | undefined
  readonly pfpUrl?: string | undefined
}

/** Keyset position of the custody list (newest first). */
export const CustodyPosition = Schema.Tuple(Schema.String, Schema.String)

const decodeSilicons = rowsDecoder(SiliconRow)

/**
 * Silicon records: their `accounts` row with what only a Silicon has.
 *
 * Database failures: SqlError is a defect, except a taken handle (HandleTaken, IdReserved); the steps
 * that run inside their caller's transaction (`insert`, `lock`, `changeHandle`, `replaceStk`, `activate`,
 * `handOver`, `end`) leave SqlError to that caller.
 */
export class SiliconsRepo extends Effect.Service<SiliconsRepo>()("accounts/SiliconsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const accounts = yield* AccountsRepo
    const ids = yield* IdsRepo
    const columns = sql.literal(SILICON_COLUMNS)
    const from = sql.literal(SILICON_FROM)

    const first = (rows: Effect.Effect<ReadonlyArray<object>, SqlError>) =>
      rows.pipe(Effect.orDie, Effect.flatMap(decodeSilicons), Effect.map((found) => Option.fromNullable(found[0])))

    /** Inside the caller's transaction: the account row and the Silicon's own row. */
    const insert = (input: NewSiliconRecord): Effect.Effect<string, HandleTaken | IdReserved | SqlError> =>
      Effect.gen(function*() {
        const status: AccountStatus = input.custodianUuid === null ? "pending_custodian" : "active"
        const account = yield* accounts.insertAccount({
          kind: "silicon",
          handle: input.handle,
          displayName: input.displayName,
          pfpUrl: input.pfpUrl,
          // A Silicon's dob is its creation date (spec 1, Account).
          dob: input.at.toISOString().slice(0, 10),
          timezone: input.timezone,
          status,
          at: input.at
        })
        yield* sql`
          INSERT INTO silicons (account_uuid, custodian_uuid, stk_hash, stk_rotated_at, webhook_url, webhook_secret)
          VALUES (${account.uuid}, ${input.custodianUuid}, ${input.stkHash}, ${input.at}, ${input.webhookUrl},
                  ${input.webhookSecret})
        `
        return account.uuid
      })

    const find = (uuid: string): Effect.Effect<Option.Option<SiliconRow>> =>
      isUuidShaped(uuid) ? first(sql`SELECT ${columns} FROM ${from} WHERE a.uuid = ${uuid}`) : Effect.succeed(Option.none())

    /** By `si:` handle (lower-cased already) while it holds it. */
    const findByHandle = (handle: string): Effect.Effect<Option.Option<SiliconRow>> =>
      first(sql`SELECT ${columns} FROM ${from} WHERE a.handle = ${handle} AND a.kind = 'silicon'`)

    /** A live (not deleted) Silicon in this Carbon's custody. */
    const findInCustody = (custodianUuid: string, uuid: string): Effect.Effect<Option.Option<SiliconRow>> =>
      isUuidShaped(uuid)
        ? first(sql`
          SELECT ${columns} FROM ${from}
          WHERE a.uuid = ${uuid} AND s.custodian_uuid = ${custodianUuid} AND a.status <> 'deleted'
        `)
        : Effect.succeed(Option.none())

    /** The custodian's live Silicons, newest first, `limit + 1` rows after `after`. */
    const listInCustody = (
      custodianUuid: string,
      limit: number,
      after: Option.Option<typeof CustodyPosition.Type>
    ): Effect.Effect<ReadonlyArray<SiliconRow>> => {
      const position = Option.match(after, {
        onNone: () => sql``,
        onSome: ([createdAt, uuid]) => sql`AND (a.created_at, a.uuid) < (${new Date(createdAt)}, ${uuid})`
      })
      return sql`
        SELECT ${columns} FROM ${from}
        WHERE s.custodian_uuid = ${custodianUuid} AND a.status <> 'deleted' ${position}
        ORDER BY a.created_at DESC, a.uuid DESC
        LIMIT ${limit + 1}
      `.pipe(Effect.orDie, Effect.flatMap(decodeSilicons))
    }

    /** Applies the given details; `version` and `updated_at` move only when a value changes. */
    const updateDetails = (uuid: string, details: SiliconDetails, at: Date): Effect.Effect<Option.Option<SiliconRow>> =>
      Effect.gen(function*() {
        const displayName = details.displayName ?? null
        const timezone = details.timezone ?? null
        const pfpUrl = details.pfpUrl ?? null
        yield* sql`
          UPDATE accounts SET
            display_name = COALESCE(${displayName}, display_name),
            timezone = COALESCE(${timezone}, timezone),
            pfp_url = COALESCE(${pfpUrl}, pfp_url),
            updated_at = ${at},
            version = version + 1
          WHERE uuid = ${uuid} AND kind = 'silicon' AND (
            display_name IS DISTINCT FROM COALESCE(${displayName}, display_name) OR
            timezone IS DISTINCT FROM COALESCE(${timezone}, timezone) OR
            pfp_url IS DISTINCT FROM COALESCE(${pfpUrl}, pfp_url)
          )
        `.pipe(Effect.orDie)
        return yield* find(uuid)
      }).pipe(Effect.withSpan("SiliconsRepo.updateDetails"))

    /** Inside the caller's transaction: the Silicon's account row, locked until the transaction ends. */
    const lock = (uuid: string) => Effect.asVoid(sql`SELECT 1 FROM accounts WHERE uuid = ${uuid} FOR UPDATE`)

    /**
     * Inside the caller's transaction: gives the Silicon a new handle; the old one is reserved for
     * it for 10 days (a reservation of its own is taken back). Event account.id_changed. Some date
     * when another owner's reservation keeps the new handle; HandleTaken when an account holds it.
     */
    const changeHandle = (
      uuid: string,
      oldHandle: string,
      newHandle: string,
      at: Date
    ): Effect.Effect<Option.Option<Date>, HandleTaken | SqlError> =>
      Effect.gen(function*() {
        yield* ids.releaseReservation(newHandle, uuid)
        const reserved = yield* ids.reservedUntil(newHandle, at)
        if (Option.isSome(reserved)) return reserved
        // In a savepoint of its own: a refused update must not abort the caller's transaction.
        yield* sql.withTransaction(sql`
          UPDATE accounts SET handle = ${newHandle}, updated_at = ${at}, version = version + 1 WHERE uuid = ${uuid}
        `).pipe(
          Effect.catchTag("SqlError", (error): Effect.Effect<never, SqlError | HandleTaken> =>
            violatedConstraint(error) === "accounts_handle_key" ? Effect.fail(new HandleTaken()) : Effect.fail(error))
        )
        yield* ids.reserve(oldHandle, uuid, new Date(at.getTime() + Duration.toMillis(ID_RESERVATION)), at)
        yield* recordEvent(sql, {
          type: "account.id_changed",
          accountUuid: uuid,
          occurredAt: at,
          data: { uuid, kind: "silicon", old_id: `si:${oldHandle}`, new_id: `si:${newHandle}` }
        })
        return Option.none<Date>()
      })

    /** The times of the id changes the account made since `since`, oldest first (the rolling 24-hour limit counts them). */
    const idChangesSince = (uuid: string, since: Date): Effect.Effect<ReadonlyArray<Date>> =>
      sql<{ readonly occurred_at: Date }>`
        SELECT occurred_at FROM account_events
        WHERE account_uuid = ${uuid} AND type = 'account.id_changed' AND occurred_at > ${since}
        ORDER BY occurred_at
      `.pipe(Effect.orDie, Effect.map((rows) => rows.map((row) => row.occurred_at)))

    /** A new STK hash; event silicon.stk_rotated. Run inside a transaction. */
    const replaceStk = (uuid: string, stkHash: string, at: Date) =>
      Effect.gen(function*() {
        yield* sql`UPDATE silicons SET stk_hash = ${stkHash}, stk_rotated_at = ${at} WHERE account_uuid = ${uuid}`
        yield* sql`DELETE FROM silicon_login_streaks WHERE subject = ${uuid}`
        yield* recordEvent(sql, { type: "silicon.stk_rotated", accountUuid: uuid, occurredAt: at, data: { uuid, rotated_at: at.toISOString() } })
      })

    const stkHashOf = (uuid: string): Effect.Effect<Option.Option<string>> =>
      sql<{ readonly stk_hash: string }>`SELECT stk_hash FROM silicons WHERE account_uuid = ${uuid}`.pipe(
        Effect.orDie,
        Effect.map((rows) => Option.fromNullable(rows[0]?.stk_hash))
      )

    /** Sets (or replaces) the webhook URL and its sealed secret. */
    const setWebhook = (uuid: string, url: string, sealedSecret: string, at: Date): Effect.Effect<void> =>
      sql`
        UPDATE silicons SET webhook_url = ${url}, webhook_secret = ${sealedSecret} WHERE account_uuid = ${uuid};
      `.pipe(
        Effect.zipRight(sql`UPDATE accounts SET updated_at = ${at}, version = version + 1 WHERE uuid = ${uuid}`),
        sql.withTransaction,
        Effect.orDie,
        Effect.asVoid
      )

    /** Removes the webhook; false when none was set. */
    const clearWebhook = (uuid: string, at: Date): Effect.Effect<boolean> =>
      sql.withTransaction(Effect.gen(function*() {
        const cleared = yield* sql`
          UPDATE silicons SET webhook_url = NULL, webhook_secret = NULL
          WHERE account_uuid = ${uuid} AND webhook_url IS NOT NULL
          RETURNING 1
        `
        if (cleared.length === 0) return false
        yield* sql`UPDATE accounts SET updated_at = ${at}, version = version + 1 WHERE uuid = ${uuid}`
        return true
      })).pipe(Effect.orDie)

    /** Inside the caller's transaction: a self-created Silicon waiting for a custodian becomes active. */
    const activate = (uuid: string, at: Date) =>
      Effect.asVoid(sql`
        UPDATE accounts SET status = 'active', updated_at = ${at}, version = version + 1
        WHERE uuid = ${uuid} AND status = 'pending_custodian'
      `)

    /** Inside the caller's transaction: the Silicon gets its new custodian; event silicon.custodian.accepted. */
    const handOver = (
      uuid: string,
      custody: { readonly kind: "initial" | "transfer"; readonly custodian: string; readonly previousCustodian: string | null },
      at: Date
    ) =>
      Effect.gen(function*() {
        yield* sql`UPDATE silicons SET custodian_uuid = ${custody.custodian} WHERE account_uuid = ${uuid}`
        yield* recordEvent(sql, {
          type: "silicon.custodian.accepted",
          accountUuid: uuid,
          occurredAt: at,
          data: { uuid, kind: custody.kind, custodian: custody.custodian, previous_custodian: custody.previousCustodian }
        })
      })

    /**
     * Inside a transaction: the Silicon ends. Its id is freed at once, its
     * sign-ins and keys are revoked, a pending request is cancelled (unless the
     * caller decides it), and event account.deleted is recorded for an account
     * that was active.
     */
    const end = (uuid: string, reason: SiliconEnd, at: Date) =>
      Effect.gen(function*() {
        const ended = yield* sql<{ readonly handle: string | null; readonly status: AccountStatus }>`
          UPDATE accounts a SET status = 'deleted', handle = NULL, updated_at = ${at}, version = a.version + 1
          FROM accounts old
          WHERE a.uuid = ${uuid} AND old.uuid = a.uuid AND a.status <> 'deleted'
          RETURNING old.handle, old.status
        `
        if (ended.length === 0) return
        yield* sql`UPDATE silicons SET ended_by = ${reason}, webhook_url = NULL, webhook_secret = NULL WHERE account_uuid = ${uuid}`
        yield* sql`UPDATE signins SET revoked_at = ${at}, revoked_reason = 'account_deleted' WHERE account_uuid = ${uuid} AND revoked_at IS NULL`
        yield* sql`UPDATE silicon_keys SET revoked_at = ${at} WHERE silicon_uuid = ${uuid} AND revoked_at IS NULL`
        yield* sql`
          UPDATE custodian_requests SET status = 'cancelled', decided_at = ${at}
          WHERE silicon_uuid = ${uuid} AND status = 'pending'
        `
        if (ended[0]!.status === "active") {
          const oldId = ended[0]!.handle === null ? null : `si:${ended[0]!.handle}`
          yield* recordEvent(sql, { type: "account.deleted", accountUuid: uuid, occurredAt: at, data: { uuid, kind: "silicon", id: oldId } })
        }
      })

    const setIdentityAudiences = (uuid: string, audiences: ReadonlyArray<string>): Effect.Effect<void> =>
      sql`UPDATE silicons SET identity_audiences = ${JSON.stringify(audiences)}::jsonb WHERE account_uuid = ${uuid}`.pipe(
        Effect.orDie,
        Effect.asVoid
      )

    return {
      insert,
      find,
      findByHandle,
      findInCustody,
      listInCustody,
      updateDetails,
      lock,
      changeHandle,
      idChangesSince,
      replaceStk,
      stkHashOf,
      setWebhook,
      clearWebhook,
      activate,
      handOver,
      end,
      setIdentityAudiences
    } as const
  }),
  dependencies: [AccountsRepo.Default, IdsRepo.Default]
}) {}
