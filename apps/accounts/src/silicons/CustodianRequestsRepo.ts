import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Data, Effect, Option, Schema } from "effect"
import { summaryJson } from "../accounts/AccountSummary.ts"
import { CustodianRequestRow, type RequestStatus } from "./CustodianRequest.ts"
import { rowsDecoder, violatedConstraint } from "@platform/database"
import type { CustodianAddress } from "./custodianAddress.ts"

/**
 * A request with the accounts it names. `to` is the Carbon named, or for a
 * request named by email, whichever Carbon has verified that email since.
 */
const REQUEST_SELECT = `
  SELECT r.id, r.kind, r.status, r.to_email, r.created_at, r.expires_at, r.decided_at,
    ${summaryJson("si")} AS silicon,
    CASE WHEN f.uuid IS NULL THEN NULL ELSE ${summaryJson("f")} END AS "from",
    CASE WHEN t.uuid IS NULL THEN NULL ELSE ${summaryJson("t")} END AS "to"
  FROM custodian_requests r
  JOIN accounts si ON si.uuid = r.silicon_uuid
  LEFT JOIN accounts f ON f.uuid = r.from_uuid
  LEFT JOIN accounts t ON t.uuid = COALESCE(r.to_uuid,
    (SELECT e.account_uuid FROM account_emails e WHERE e.address = r.to_email AND e.verified_at IS NOT NULL))`

/** What deciding a request needs, read under a row lock. */
export const LockedRequest = Schema.Struct({
  id: Schema.String,
  kind: Schema.Literal("initial", "transfer"),
  status: Schema.Literal("pending", "accepted", "declined", "expired", "cancelled"),
  silicon_uuid: Schema.String,
  from_uuid: Schema.NullOr(Schema.String),
  to_uuid: Schema.NullOr(Schema.String),
  expires_at: Schema.DateFromSelf
})
export type LockedRequest = typeof LockedRequest.Type

/** Keyset position of the incoming list (newest first). */
export const IncomingPosition = Schema.Tuple(Schema.String, Schema.String)

const decodeRequests = rowsDecoder(CustodianRequestRow)
const decodeLocked = rowsDecoder(LockedRequest)

export interface NewCustodianRequest {
  readonly id: string
  readonly kind: "initial" | "transfer"
  readonly siliconUuid: string
  readonly fromUuid: string | null
  readonly toUuid: string | null
  readonly toEmail: string | null
  readonly requestTokenHash: string | null
  readonly at: Date
  readonly expiresAt: Date
}

/** The Silicon has a pending request already (the unique index `custodian_requests_one_pending` said so). */
export class RequestAlreadyPending extends Data.TaggedError("RequestAlreadyPending") {}

/**
 * Custodian requests: initial ones of self-created Silicons, and transfers.
 *
 * Database failures: SqlError is a defect, except a second pending request (RequestAlreadyPending);
 * the steps that run inside their caller's transaction (`lockCustodian`, `insert`, `pendingInitialCount`,
 * the locks and `decide`) leave SqlError to that caller.
 */
export class CustodianRequestsRepo extends Effect.Service<CustodianRequestsRepo>()("accounts/CustodianRequestsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const select = sql.literal(REQUEST_SELECT)

    const first = (rows: Effect.Effect<ReadonlyArray<object>, SqlError>) =>
      rows.pipe(Effect.orDie, Effect.flatMap(decodeRequests), Effect.map((found) => Option.fromNullable(found[0])))

    /**
     * Inside the caller's transaction: serializes the creations naming one custodian until the
     * transaction ends, so a count of its pending requests holds under concurrency.
     */
    const lockCustodian = (to: CustodianAddress) =>
      Effect.asVoid(sql`SELECT pg_advisory_xact_lock(hashtext(${`custodian:${to.toEmail ?? to.toUuid}`}))`)

    /** Inside the caller's transaction. A second pending request for one Silicon fails with RequestAlreadyPending. */
    const insert = (request: NewCustodianRequest): Effect.Effect<void, RequestAlreadyPending | SqlError> =>
      // In a savepoint of its own: a refused insert must not abort the caller's transaction.
      sql.withTransaction(sql`
        INSERT INTO custodian_requests
          (id, kind, status, silicon_uuid, from_uuid, to_uuid, to_email, request_token_hash, created_at, expires_at)
        VALUES (${request.id}, ${request.kind}, 'pending', ${request.siliconUuid}, ${request.fromUuid}, ${request.toUuid},
                ${request.toEmail}, ${request.requestTokenHash}, ${request.at}, ${request.expiresAt})
      `).pipe(
        Effect.asVoid,
        Effect.catchTag("SqlError", (error): Effect.Effect<never, SqlError | RequestAlreadyPending> =>
          violatedConstraint(error) === "custodian_requests_one_pending" ? Effect.fail(new RequestAlreadyPending()) : Effect.fail(error))
      )

    const find = (id: string) => first(sql`${select} WHERE r.id = ${id}`)

    const findByTokenHash = (hash: string) => first(sql`${select} WHERE r.request_token_hash = ${hash}`)

    const pendingFor = (siliconUuid: string) => first(sql`${select} WHERE r.silicon_uuid = ${siliconUuid} AND r.status = 'pending'`)

    /** Self-created Silicons waiting for this custodian, named by uuid or by email. */
    const pendingInitialCount = (toUuid: string | null, toEmail: string | null): Effect.Effect<number, SqlError> =>
      Effect.map(
        sql<{ readonly count: number }>`
          SELECT count(*)::int AS count FROM custodian_requests
          WHERE kind = 'initial' AND status = 'pending'
            AND ((${toUuid}::text IS NOT NULL AND to_uuid = ${toUuid}) OR (${toEmail}::text IS NOT NULL AND to_email = ${toEmail}))
        `,
        (rows) => rows[0]?.count ?? 0
      )

    /** Requests addressed to this Carbon (by uuid, or by an email it verified), newest first. */
    const listIncoming = (
      carbonUuid: string,
      status: Option.Option<RequestStatus>,
      limit: number,
      after: Option.Option<typeof IncomingPosition.Type>
    ) => {
      const byStatus = Option.match(status, { onNone: () => sql``, onSome: (value) => sql`AND r.status = ${value}` })
      const position = Option.match(after, {
        onNone: () => sql``,
        onSome: ([createdAt, id]) => sql`AND (r.created_at, r.id) < (${new Date(createdAt)}, ${id})`
      })
      return sql`
        ${select}
        WHERE t.uuid = ${carbonUuid} ${byStatus} ${position}
        ORDER BY r.created_at DESC, r.id DESC
        LIMIT ${limit + 1}
      `.pipe(Effect.orDie, Effect.flatMap(decodeRequests))
    }

    /**
     * Inside a transaction: the request addressed to `carbonUuid` (by uuid or a
     * verified email), locked until the transaction ends.
     */
    const lockAddressedTo = (id: string, carbonUuid: string) =>
      sql`
        SELECT r.id, r.kind, r.status, r.silicon_uuid, r.from_uuid, r.to_uuid, r.expires_at
        FROM custodian_requests r
        WHERE r.id = ${id} AND (r.to_uuid = ${carbonUuid} OR (r.to_uuid IS NULL AND r.to_email IN (
          SELECT address FROM account_emails WHERE account_uuid = ${carbonUuid} AND verified_at IS NOT NULL
        )))
        FOR UPDATE OF r
      `.pipe(
        Effect.flatMap(decodeLocked),
        Effect.map((rows) => Option.fromNullable(rows[0]))
      )

    /** Inside a transaction: the request if still pending, locked until the transaction ends. */
    const lockPending = (id: string) =>
      sql`
        SELECT id, kind, status, silicon_uuid, from_uuid, to_uuid, expires_at FROM custodian_requests
        WHERE id = ${id} AND status = 'pending' FOR UPDATE
      `.pipe(
        Effect.flatMap(decodeLocked),
        Effect.map((rows) => Option.fromNullable(rows[0]))
      )

    /** Inside a transaction: decides a pending request; `decidedBy` binds an email-named request to its Carbon. */
    const decide = (id: string, status: Exclude<RequestStatus, "pending">, at: Date, decidedBy: string | null = null) =>
      Effect.asVoid(sql`
        UPDATE custodian_requests SET status = ${status}, decided_at = ${at}, to_uuid = COALESCE(to_uuid, ${decidedBy})
        WHERE id = ${id} AND status = 'pending'
      `)

    /** The custodian withdraws the Silicon's pending transfer; the request's id, none when no transfer of it was pending. */
    const cancelTransfer = (siliconUuid: string, custodianUuid: string, at: Date): Effect.Effect<Option.Option<string>> =>
      sql<{ readonly id: string }>`
        UPDATE custodian_requests SET status = 'cancelled', decided_at = ${at}
        WHERE silicon_uuid = ${siliconUuid} AND kind = 'transfer' AND status = 'pending' AND from_uuid = ${custodianUuid}
        RETURNING id
      `.pipe(Effect.orDie, Effect.map((rows) => Option.fromNullable(rows[0]?.id)))

    /** Pending requests whose 14 days have passed, locked for the sweep (other processes skip them). */
    const lockDue = (at: Date, limit: number) =>
      sql`
        SELECT id, kind, status, silicon_uuid, from_uuid, to_uuid, expires_at FROM custodian_requests
        WHERE status = 'pending' AND expires_at <= ${at}
        ORDER BY expires_at
        LIMIT ${limit}
        FOR UPDATE SKIP LOCKED
      `.pipe(Effect.flatMap(decodeLocked))

    return {
      lockCustodian,
      insert,
      find,
      findByTokenHash,
      pendingFor,
      pendingInitialCount,
      listIncoming,
      lockAddressedTo,
      lockPending,
      decide,
      cancelTransfer,
      lockDue
    } as const
  })
}) {}
