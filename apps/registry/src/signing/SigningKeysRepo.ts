import { SqlClient } from "@effect/sql"
import { columnsOf, inTransaction, rowsDecoder } from "@platform/database"
import { Effect, Option, Schema } from "effect"

export const SigningKeyRow = Schema.Struct({
  key_id: Schema.String,
  name: Schema.String,
  algorithm: Schema.Literal("ed25519"),
  public_key: Schema.String,
  created_at: Schema.DateFromSelf,
  status: Schema.Literal("active", "revoked"),
  revoked_at: Schema.NullOr(Schema.DateFromSelf),
  revoked_reason: Schema.NullOr(Schema.String)
})
export type SigningKeyRow = typeof SigningKeyRow.Type
const KEY_COLUMNS = columnsOf(SigningKeyRow.fields)
const decodeKeys = rowsDecoder(SigningKeyRow)
const decodeSecret = rowsDecoder(Schema.Struct({ key_id: Schema.String, private_key: Schema.String }))

export interface NewSigningKey {
  readonly key_id: string
  readonly name: string
  readonly public_key: string
  /** Sealed under the key-encryption key. */
  readonly private_key: string
  readonly created_at: Date
}

/** The `release_signing_keys` table. Database failures are defects. */
export class SigningKeysRepo extends Effect.Service<SigningKeysRepo>()("registry/SigningKeysRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const insert = (key: NewSigningKey) =>
      sql`
        insert into release_signing_keys (key_id, name, algorithm, public_key, private_key, created_at, status)
        values (${key.key_id}, ${key.name}, 'ed25519', ${key.public_key}, ${key.private_key}, ${key.created_at}, 'active')
        returning ${sql.unsafe(KEY_COLUMNS)}
      `.pipe(Effect.flatMap(decodeKeys), Effect.map((rows) => rows[0]!))

    /** The key that signs now: the newest active one, with its sealed private key. */
    const current = sql`
      select key_id, private_key from release_signing_keys where status = 'active' order by position desc limit 1
    `.pipe(Effect.flatMap(decodeSecret), Effect.map((rows) => Option.fromNullable(rows[0])))

    return {
      /** Every key ever made, newest first. */
      list: sql.unsafe(`select ${KEY_COLUMNS} from release_signing_keys order by position desc`).pipe(
        Effect.flatMap(decodeKeys),
        Effect.orDie
      ),
      current: Effect.orDie(current),
      insert: (key: NewSigningKey) => Effect.orDie(insert(key)),
      /**
       * Inserts the key made by `make` unless an active key exists, one process at a time (concurrent first
       * starts make one key); the current key either way.
       */
      ensureActive: (make: Effect.Effect<NewSigningKey>): Effect.Effect<Option.Option<SigningKeyRow>> =>
        inTransaction(sql)(Effect.gen(function*() {
          yield* sql`lock table release_signing_keys in share row exclusive mode`
          const present = yield* current
          if (Option.isSome(present)) return Option.none()
          return Option.some(yield* insert(yield* make))
        })).pipe(Effect.orDie),
      /** Revokes an active key (dropping its private part); none when there is no such active key. */
      revoke: (keyId: string, at: Date, reason: string) =>
        sql`
          update release_signing_keys
          set status = 'revoked', private_key = null, revoked_at = ${at}, revoked_reason = ${reason}
          where key_id = ${keyId} and status = 'active'
          returning ${sql.unsafe(KEY_COLUMNS)}
        `.pipe(Effect.flatMap(decodeKeys), Effect.map((rows) => Option.fromNullable(rows[0])), Effect.orDie),
      find: (keyId: string) =>
        sql`select ${sql.unsafe(KEY_COLUMNS)} from release_signing_keys where key_id = ${keyId}`.pipe(
          Effect.flatMap(decodeKeys),
          Effect.map((rows) => Option.fromNullable(rows[0])),
          Effect.orDie
        )
    }
  })
}) {}
