import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { rowsDecoder } from "@platform/database"
import { Clock, Context, Data, Duration, Effect, Layer, Option, Schema } from "effect"
import { type OnceResult, PriorRequest, type StoredResponse } from "./PriorRequest.ts"
import { type IdempotencyRetention, KEY_RETENTION, retentionDuration } from "./retention.ts"

export interface IdempotencyKeyRef {
  /** Opaque string built by the caller, e.g. a digest of the credential plus the route. */
  readonly scope: string
  /** The client's Idempotency-Key value, already validated by the HTTP layer. */
  readonly key: string
}

export interface RequestRef extends IdempotencyKeyRef {
  /** SHA-256 hex of method, path and body, compared as given. */
  readonly fingerprint: string
}

/** The answer to keep for replays, and for how long. */
export interface KeptAnswer extends StoredResponse {
  readonly retention: IdempotencyRetention
}

/** What a run produced: its value, and the answer to keep (none: forget the request, its writes included). */
export interface RunOutcome<A> {
  readonly value: A
  readonly keep: Option.Option<KeptAnswer>
}

export interface IdempotencyStoreService {
  /**
   * Runs `run` once per (scope, key): in one transaction that also stores the answer it keeps,
   * so that after a crash, a cut connection or an outage either everything the request wrote
   * committed with its answer (a retry replays it) or nothing did (a retry runs it again).
   * A run that keeps no answer (a 5xx) rolls back. The same key held by a running request is
   * `InProgress`, also across processes; a finished one is `Replay`, or `Mismatch` for a different request.
   */
  readonly once: <A, R>(
    request: RequestRef,
    run: Effect.Effect<RunOutcome<A>, never, R>
  ) => Effect.Effect<OnceResult<A>, SqlError, R>
  /** Deletes expired answers; returns how many rows went. */
  readonly purgeExpired: Effect.Effect<number, SqlError>
}

const StoredRow = Schema.Struct({
  fingerprint: Schema.String,
  answer_kept: Schema.Boolean,
  status: Schema.Number,
  headers: Schema.parseJson(Schema.Record({ key: Schema.String, value: Schema.String })),
  body: Schema.Uint8ArrayFromHex
})

const LockRow = Schema.Struct({ locked: Schema.Boolean })
const CountRow = Schema.Struct({ count: Schema.Union(Schema.Number, Schema.NumberFromString) })

const decodeStoredRows = rowsDecoder(StoredRow)
const decodeLockRows = rowsDecoder(LockRow)
const decodeCountRows = rowsDecoder(CountRow)

/** Ends the transaction of a run that keeps no answer, so that its writes roll back. */
class Discarded<A> extends Data.TaggedError("Discarded")<{ readonly value: A }> {}

export const makeIdempotencyStore: Effect.Effect<IdempotencyStoreService, never, SqlClient.SqlClient> = Effect
  .gen(function*() {
    const sql = yield* SqlClient.SqlClient
    // Keys running in this process: a second request for one answers at once, without waiting
    // for a connection (the embedded database has only one, held by the first request's transaction).
    const runningHere = new Set<string>()

    /** Held until the transaction ends; another process's try fails meanwhile. */
    const tryLock = (ref: IdempotencyKeyRef) =>
      sql`SELECT pg_try_advisory_xact_lock(hashtextextended(${`idempotency:${ref.scope}:${ref.key}`}, 0)) AS locked`
        .pipe(Effect.flatMap(decodeLockRows), Effect.map((rows) => rows[0]?.locked === true))

    // Read after the lock, in a statement of its own: its snapshot then includes the last holder's commit.
    const storedAnswer = (ref: IdempotencyKeyRef, now: Date) =>
      sql`
        SELECT fingerprint, COALESCE(answer_expires_at, expires_at) > ${now} AS answer_kept,
               status, headers::text AS headers, encode(body, 'hex') AS body
        FROM idempotency_keys
        WHERE scope = ${ref.scope} AND key = ${ref.key} AND state = 'done' AND expires_at > ${now}
      `.pipe(Effect.flatMap(decodeStoredRows), Effect.map((rows) => Option.fromNullable(rows[0])))

    const keepAnswer = (request: RequestRef, answer: KeptAnswer, now: Date) => {
      const expiresAt = new Date(now.getTime() + Duration.toMillis(KEY_RETENTION))
      const answerExpiresAt = new Date(now.getTime() + Duration.toMillis(retentionDuration(answer.retention)))
      const values = {
        scope: request.scope,
        key: request.key,
        fingerprint: request.fingerprint,
        state: "done",
        locked_until: null,
        expires_at: expiresAt,
        answer_expires_at: answerExpiresAt,
        created_at: now,
        completed_at: now,
        status: answer.status,
        headers: JSON.stringify(answer.headers),
        body: answer.body
      }
      return sql`
        INSERT INTO idempotency_keys ${sql.insert(values)}
        ON CONFLICT (scope, key) DO UPDATE SET
          fingerprint = EXCLUDED.fingerprint, state = 'done', locked_until = NULL,
          expires_at = EXCLUDED.expires_at, answer_expires_at = EXCLUDED.answer_expires_at, created_at = EXCLUDED.created_at,
          completed_at = EXCLUDED.completed_at, status = EXCLUDED.status,
          headers = EXCLUDED.headers, body = EXCLUDED.body
      `
    }

    const ran = <A>(value: A): OnceResult<A> => ({ _tag: "Ran", value })
    const inProgress: OnceResult<never> = PriorRequest.InProgress()

    const inTransaction = <A, R>(request: RequestRef, run: Effect.Effect<RunOutcome<A>, never, R>) =>
      sql.withTransaction(Effect.gen(function*() {
        if (!(yield* tryLock(request))) return inProgress
        const now = new Date(yield* Clock.currentTimeMillis)
        const stored = yield* storedAnswer(request, now)
        if (Option.isSome(stored)) {
          const { answer_kept, fingerprint, ...response } = stored.value
          if (fingerprint !== request.fingerprint) return PriorRequest.Mismatch()
          return answer_kept ? PriorRequest.Replay(response) : PriorRequest.Unavailable()
        }
        const outcome = yield* run
        if (Option.isNone(outcome.keep)) return yield* new Discarded({ value: outcome.value })
        yield* keepAnswer(request, outcome.keep.value, new Date(yield* Clock.currentTimeMillis))
        return ran(outcome.value)
      })).pipe(
        Effect.catchIf(
          (error): error is Discarded<A> => error instanceof Discarded,
          (discarded) => Effect.succeed(ran(discarded.value))
        )
      )

    const once = <A, R>(request: RequestRef, run: Effect.Effect<RunOutcome<A>, never, R>) => {
      const id = `${request.scope}\n${request.key}`
      return Effect.suspend(() => {
        if (runningHere.has(id)) return Effect.succeed(inProgress)
        runningHere.add(id)
        return Effect.ensuring(inTransaction(request, run), Effect.sync(() => runningHere.delete(id)))
      })
    }

    const purgeExpired: Effect.Effect<number, SqlError> = Effect.gen(function*() {
      const now = new Date(yield* Clock.currentTimeMillis)
      // An answer past its own time (one carrying a secret) is erased; the key stays taken until it expires.
      yield* sql`
        UPDATE idempotency_keys SET body = ''::bytea, headers = '{}'::jsonb
        WHERE answer_expires_at <= ${now} AND octet_length(body) > 0
      `
      const rows = yield* sql`
        WITH purged AS (DELETE FROM idempotency_keys WHERE expires_at <= ${now} RETURNING 1)
        SELECT count(*)::integer AS count FROM purged
      `.pipe(Effect.flatMap(decodeCountRows))
      return rows[0]?.count ?? 0
    })

    return { once, purgeExpired }
  })

export class IdempotencyStore
  extends Context.Tag("@platform/idempotency/IdempotencyStore")<IdempotencyStore, IdempotencyStoreService>()
{
  static readonly layer: Layer.Layer<IdempotencyStore, never, SqlClient.SqlClient> = Layer.effect(
    IdempotencyStore,
    makeIdempotencyStore
  )
}
