import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { rowsDecoder } from "@platform/database"
import { Clock, Context, Duration, Effect, Layer, Schema } from "effect"
import { BeginResult, type StoredResponse } from "./BeginResult.ts"
import { IDEMPOTENCY_ABANDONED_CLAIM_TTL, IDEMPOTENCY_HOLD, type IdempotencyRetention, retentionDuration } from "./retention.ts"

export interface IdempotencyKeyRef {
  /** Opaque string built by the caller, e.g. a digest of the credential plus the route. */
  readonly scope: string
  /** The client's Idempotency-Key value, already validated by the HTTP layer. */
  readonly key: string
}

export interface BeginInput extends IdempotencyKeyRef {
  /** SHA-256 hex of method, path and body, compared as given. */
  readonly fingerprint: string
}

export interface CompleteInput extends BeginInput, StoredResponse {
  readonly retention: IdempotencyRetention
}

export interface IdempotencyStoreService {
  readonly begin: (input: BeginInput) => Effect.Effect<BeginResult, SqlError>
  /** Stores the response of the running request with this fingerprint; the first completion wins. */
  readonly complete: (input: CompleteInput) => Effect.Effect<void, SqlError>
  /** Frees a running key (the request failed with a 5xx or a defect) so a retry runs again. */
  readonly release: (input: IdempotencyKeyRef) => Effect.Effect<void, SqlError>
  /** Deletes expired results and abandoned claims; returns how many rows went. */
  readonly purgeExpired: Effect.Effect<number, SqlError>
}

const ExistingRow = Schema.Struct({
  fingerprint: Schema.String,
  state: Schema.Literal("running", "done"),
  held: Schema.Boolean,
  live: Schema.Boolean,
  status: Schema.NullOr(Schema.Number),
  headers: Schema.NullOr(Schema.parseJson(Schema.Record({ key: Schema.String, value: Schema.String }))),
  body: Schema.NullOr(Schema.Uint8ArrayFromHex)
})
type ExistingRow = typeof ExistingRow.Type

const CountRow = Schema.Struct({ count: Schema.Union(Schema.Number, Schema.NumberFromString) })

const decodeExistingRows = rowsDecoder(ExistingRow)
const decodeCountRows = rowsDecoder(CountRow)

/**
 * Reading the row after a refused claim can race with a release, a sweep or
 * an expiry; the claim is then tried again, a bounded number of times.
 */
const MAX_CLAIM_ATTEMPTS = 5

type Classification = BeginResult | "retry"

const classify = (row: ExistingRow | undefined, fingerprint: string): Classification => {
  if (row === undefined || !row.live) return "retry"
  if (row.fingerprint !== fingerprint) return BeginResult.Mismatch()
  if (row.state === "running") return row.held ? BeginResult.InProgress() : "retry"
  if (row.status === null || row.headers === null || row.body === null) return "retry"
  return BeginResult.Replay({ status: row.status, headers: row.headers, body: row.body })
}

export const makeIdempotencyStore: Effect.Effect<IdempotencyStoreService, never, SqlClient.SqlClient> = Effect
  .gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /**
     * One atomic statement: insert a running row, or take over an existing one
     * when it has expired (counts as absent) or is the same request whose hold
     * is over (the first request died). Returns whether this caller holds the key.
     */
    const claim = (input: BeginInput, now: Date) =>
      sql`
        INSERT INTO idempotency_keys AS existing
          (scope, key, fingerprint, state, locked_until, expires_at, created_at)
        VALUES (
          ${input.scope}, ${input.key}, ${input.fingerprint}, 'running',
          ${new Date(now.getTime() + Duration.toMillis(IDEMPOTENCY_HOLD))},
          ${new Date(now.getTime() + Duration.toMillis(IDEMPOTENCY_ABANDONED_CLAIM_TTL))},
          ${now}
        )
        ON CONFLICT (scope, key) DO UPDATE SET
          fingerprint = EXCLUDED.fingerprint,
          state = 'running',
          locked_until = EXCLUDED.locked_until,
          expires_at = EXCLUDED.expires_at,
          created_at = EXCLUDED.created_at,
          completed_at = NULL,
          status = NULL,
          headers = NULL,
          body = NULL
        WHERE existing.expires_at <= ${now}
          OR (existing.state = 'running' AND existing.locked_until <= ${now}
              AND existing.fingerprint = EXCLUDED.fingerprint)
        RETURNING 1 AS claimed
      `.pipe(Effect.map((rows) => rows.length > 0))

    const readExisting = (input: BeginInput, now: Date) =>
      sql`
        SELECT fingerprint, state,
          (locked_until IS NOT NULL AND locked_until > ${now}) AS held,
          (expires_at > ${now}) AS live,
          status, headers::text AS headers, encode(body, 'hex') AS body
        FROM idempotency_keys
        WHERE scope = ${input.scope} AND key = ${input.key}
      `.pipe(Effect.flatMap(decodeExistingRows), Effect.map((rows) => rows[0]))

    const attemptBegin = (input: BeginInput, attempt: number): Effect.Effect<BeginResult, SqlError> =>
      Effect.gen(function*() {
        const now = new Date(yield* Clock.currentTimeMillis)
        if (yield* claim(input, now)) return BeginResult.Started()
        const outcome = classify(yield* readExisting(input, now), input.fingerprint)
        if (outcome !== "retry") return outcome
        // Still contended after several rounds: answer conservatively, the client retries later.
        return attempt >= MAX_CLAIM_ATTEMPTS ? BeginResult.InProgress() : yield* attemptBegin(input, attempt + 1)
      })

    const begin = (input: BeginInput) => attemptBegin(input, 1)

    const complete = (input: CompleteInput): Effect.Effect<void, SqlError> =>
      Effect.gen(function*() {
        const nowMillis = yield* Clock.currentTimeMillis
        const expiresAt = new Date(nowMillis + Duration.toMillis(retentionDuration(input.retention)))
        yield* sql`
          UPDATE idempotency_keys SET
            state = 'done',
            locked_until = NULL,
            expires_at = ${expiresAt},
            completed_at = ${new Date(nowMillis)},
            status = ${input.status},
            headers = ${JSON.stringify(input.headers)}::jsonb,
            body = ${input.body}
          WHERE scope = ${input.scope} AND key = ${input.key}
            AND fingerprint = ${input.fingerprint} AND state = 'running'
        `
      })

    const release = (input: IdempotencyKeyRef): Effect.Effect<void, SqlError> =>
      Effect.asVoid(sql`
        DELETE FROM idempotency_keys
        WHERE scope = ${input.scope} AND key = ${input.key} AND state = 'running'
      `)

    const purgeExpired: Effect.Effect<number, SqlError> = Effect.gen(function*() {
      const now = new Date(yield* Clock.currentTimeMillis)
      const rows = yield* sql`
        WITH purged AS (DELETE FROM idempotency_keys WHERE expires_at <= ${now} RETURNING 1)
        SELECT count(*)::integer AS count FROM purged
      `.pipe(Effect.flatMap(decodeCountRows))
      return rows[0]?.count ?? 0
    })

    return { begin, complete, release, purgeExpired }
  })

export class IdempotencyStore
  extends Context.Tag("@platform/idempotency/IdempotencyStore")<IdempotencyStore, IdempotencyStoreService>()
{
  static readonly layer: Layer.Layer<IdempotencyStore, never, SqlClient.SqlClient> = Layer.effect(
    IdempotencyStore,
    makeIdempotencyStore
  )
}
