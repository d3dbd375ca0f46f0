import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect, Option, Schema } from "effect"
import type { AccountStatus } from "../accounts/AccountRow.ts"
import { AccountsRepo, HandleTaken } from "../accounts/AccountsRepo.ts"
import type { IdReserved } from "../accounts/errors.ts"
import { isUuidShaped } from "../accounts/uuidPermutation.ts"
import { publishEvent } from "../events/publishEvent.ts"
import { type SiliconEnd, SILICON_COLUMNS, SILICON_FROM, SiliconRow } from "./SiliconRow.ts"
import { rowsDecoder } from "@platform/database"
import { eventWriter } from "../events/EventWriter.ts"

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

/** The Silicon `uuid` (uuid-shaped) with its custodian. */
export const siliconByUuid = (sql: SqlClient.SqlClient, uuid: string) =>
  sql`SELECT ${sql.literal(SILICON_COLUMNS)} FROM ${sql.literal(SILICON_FROM)} WHERE a.uuid = ${uuid}`

/**
 * Silicon records: their `accounts` row with what only a Silicon has.
 *
 * Database failures: SqlError is a defect, except a taken handle (HandleTaken, IdReserved); the steps
 * that run inside their caller's transaction (`insert`, `lock`, `replaceStk`, `activate`,
 * `handOver`, `end`) leave SqlError to that caller.
 */
export class SiliconsRepo extends Effect.Service<SiliconsRepo>()("accounts/SiliconsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const events = yield* eventWriter
    const accounts = yield* AccountsRepo
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
      isUuidShaped(uuid) ? first(siliconByUuid(sql, uuid)) : Effect.succeed(Option.none())

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

    /** A new STK hash; event silicon.stk_rotated. Run inside a transaction. */
    const replaceStk = (uuid: string, stkHash: string, at: Date) =>
      Effect.gen(function*() {
        yield* sql`UPDATE silicons SET stk_hash = ${stkHash}, stk_rotated_at = ${at} WHERE account_uuid = ${uuid}`
        yield* sql`DELETE FROM silicon_login_streaks WHERE subject = ${uuid}`
        yield* publishEvent(events, { type: "silicon.stk_rotated", accountUuid: uuid, occurredAt: at })
      })

    const stkHashOf = (uuid: string): Effect.Effect<Option.Option<string>> =>
      sql<{ readonly stk_hash: string }>`SELECT stk_hash FROM silicons WHERE account_uuid = ${uuid}`.pipe(
        Effect.orDie,
        Effect.map((rows) => Option.fromNullable(rows[0]?.stk_hash))
      )


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
        yield* publishEvent(events, {
          type: "silicon.custodian.accepted",
          accountUuid: uuid,
          occurredAt: at,
          requestKind: custody.kind,
          custodian: custody.custodian,
          previousCustodian: custody.previousCustodian
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
          yield* publishEvent(events, { type: "account.deleted", accountUuid: uuid, occurredAt: at, id: oldId })
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
      replaceStk,
      stkHashOf,
      activate,
      handOver,
      end,
      setIdentityAudiences
    } as const
  }),
  dependencies: [AccountsRepo.Default]
}) {}
