import type { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect, Schema } from "effect"
import { SigningKeyLoadError } from "./errors.ts"
import { PublicJwk } from "./PublicJwk.ts"
import { type SigningAlg, SIGNING_ALGS } from "./SigningAlg.ts"

/** A key as written: the private key already sealed (PEM or encrypted envelope). */
export interface NewKeyRow {
  readonly kid: string
  readonly alg: SigningAlg
  readonly publicJwk: PublicJwk
  readonly privateKey: string
}

const PublishedKeyRow = Schema.Struct({
  kid: Schema.String,
  alg: Schema.Literal(...SIGNING_ALGS),
  public_jwk: Schema.parseJson(PublicJwk),
  // Only active keys have one; retired keys keep their public part only.
  private_key: Schema.NullOr(Schema.String)
})
export type PublishedKeyRow = typeof PublishedKeyRow.Type

const decodeRows = Schema.decodeUnknown(Schema.Array(PublishedKeyRow))

const timestamp = (date: Date): string => date.toISOString()

/** SQL for the `signing_keys` table. Timestamps are passed in (from `Clock`), never taken from `now()`. */
export const makeSigningKeyStore = (sql: SqlClient.SqlClient) => {
  const activeAlgs: Effect.Effect<ReadonlyArray<SigningAlg>, SqlError> = sql<{ readonly alg: SigningAlg }>`
    SELECT alg FROM signing_keys WHERE retired_at IS NULL
  `.pipe(Effect.map((rows) => rows.map((row) => row.alg)))

  /** Inserts `key` as the active key of its alg unless one exists already; whether it was inserted. */
  const insertActiveIfAbsent = (key: NewKeyRow, now: Date): Effect.Effect<boolean, SqlError> =>
    sql`
      INSERT INTO signing_keys (kid, alg, public_jwk, private_key, created_at)
      VALUES (${key.kid}, ${key.alg}, ${JSON.stringify(key.publicJwk)}::jsonb, ${key.privateKey}, ${timestamp(now)}::timestamptz)
      ON CONFLICT (alg) WHERE retired_at IS NULL DO NOTHING
      RETURNING kid
    `.pipe(Effect.map((rows) => rows.length === 1))

  /**
   * In one transaction, retires the active key of each alg of `keys` (dropping its private key,
   * publishing it until `publishedUntil`) and makes the new key active.
   */
  const replaceActive = (keys: ReadonlyArray<NewKeyRow>, now: Date, publishedUntil: Date): Effect.Effect<void, SqlError> =>
    sql.withTransaction(
      Effect.gen(function*() {
        // Serializes concurrent rotations (readers are not blocked), so none fails on the unique index.
        yield* sql`LOCK TABLE signing_keys IN SHARE ROW EXCLUSIVE MODE`
        for (const key of keys) {
          yield* sql`
            UPDATE signing_keys
            SET retired_at = ${timestamp(now)}::timestamptz,
                published_until = ${timestamp(publishedUntil)}::timestamptz,
                private_key = NULL
            WHERE alg = ${key.alg} AND retired_at IS NULL
          `
          yield* sql`
            INSERT INTO signing_keys (kid, alg, public_jwk, private_key, created_at)
            VALUES (${key.kid}, ${key.alg}, ${JSON.stringify(key.publicJwk)}::jsonb, ${key.privateKey}, ${timestamp(now)}::timestamptz)
          `
        }
      })
    )

  /** Every key to publish at `now`: the active ones and retired ones still within `published_until`, newest first. */
  const loadPublished = (now: Date): Effect.Effect<ReadonlyArray<PublishedKeyRow>, SqlError | SigningKeyLoadError> =>
    sql`
      SELECT kid, alg, public_jwk::text AS public_jwk, private_key
      FROM signing_keys
      WHERE published_until IS NULL OR published_until > ${timestamp(now)}::timestamptz
      ORDER BY created_at DESC, kid
    `.pipe(
      Effect.flatMap(decodeRows),
      Effect.catchTag("ParseError", (error) =>
        Effect.fail(new SigningKeyLoadError({ message: `signing_keys holds a row that is not a valid key: ${error.message}` })))
    )

  return { activeAlgs, insertActiveIfAbsent, replaceActive, loadPublished } as const
}

export type SigningKeyStore = ReturnType<typeof makeSigningKeyStore>
