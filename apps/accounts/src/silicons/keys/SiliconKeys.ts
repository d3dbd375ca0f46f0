import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import * as jose from "jose"
import { now } from "@platform/service"
import { KeyExists, KeyNotFound, TooManyKeys } from "../errors.ts"
import { LIVE_KEYS_PER_SILICON } from "../SiliconsMigration.ts"
import type { Ed25519PublicJwk } from "./PublicKeyJwk.ts"
import { SiliconKeyRow } from "./SiliconKey.ts"
import { rowsDecoder } from "@platform/database"

const decodeKeys = rowsDecoder(SiliconKeyRow)

/**
 * A Silicon's Ed25519 public keys for signed assertions: at most 10 live, one live per thumbprint.
 *
 * Database failures: SqlError is a defect (no caller can act on one).
 */
export class SiliconKeys extends Effect.Service<SiliconKeys>()("accounts/SiliconKeys", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /** Live keys, newest first. */
    const listLive = (siliconUuid: string): Effect.Effect<ReadonlyArray<SiliconKeyRow>> =>
      sql`
        SELECT id, name, public_jwk, created_at FROM silicon_keys
        WHERE silicon_uuid = ${siliconUuid} AND revoked_at IS NULL
        ORDER BY created_at DESC, id
      `.pipe(Effect.orDie, Effect.flatMap(decodeKeys))

    const findLive = (siliconUuid: string, id: string): Effect.Effect<Option.Option<SiliconKeyRow>> =>
      sql`
        SELECT id, name, public_jwk, created_at FROM silicon_keys
        WHERE silicon_uuid = ${siliconUuid} AND id = ${id} AND revoked_at IS NULL
      `.pipe(Effect.orDie, Effect.flatMap(decodeKeys), Effect.map((rows) => Option.fromNullable(rows[0])))

    /**
     * Registers a key. The Silicon's row is locked first, so concurrent
     * registrations count one after another and the limit holds.
     */
    const add = (siliconUuid: string, name: string, jwk: Ed25519PublicJwk) =>
      Effect.gen(function*() {
        const id = yield* Effect.promise(() => jose.calculateJwkThumbprint(jwk, "sha256"))
        const at = yield* now
        return yield* sql.withTransaction(Effect.gen(function*() {
          yield* sql`SELECT 1 FROM silicons WHERE account_uuid = ${siliconUuid} FOR UPDATE`
          const live = yield* sql<{ readonly id: string }>`
            SELECT id FROM silicon_keys WHERE silicon_uuid = ${siliconUuid} AND revoked_at IS NULL
          `
          if (live.some((key) => key.id === id)) {
            return yield* new KeyExists({ message: "This public key is registered already.", hint: `Its id is ${id}.` })
          }
          if (live.length >= LIVE_KEYS_PER_SILICON) {
            return yield* new TooManyKeys({
              message: `A Silicon has at most ${LIVE_KEYS_PER_SILICON} live keys; delete one first.`,
              details: { limit: LIVE_KEYS_PER_SILICON }
            })
          }
          const rows = yield* sql`
            INSERT INTO silicon_keys (id, silicon_uuid, name, public_jwk, created_at)
            VALUES (${id}, ${siliconUuid}, ${name}, ${JSON.stringify(jwk)}::jsonb, ${at})
            ON CONFLICT (silicon_uuid, id) DO UPDATE SET
              name = EXCLUDED.name, public_jwk = EXCLUDED.public_jwk, created_at = EXCLUDED.created_at, revoked_at = NULL
            RETURNING id, name, public_jwk, created_at
          `
          const [row] = yield* decodeKeys(rows)
          return row ?? (yield* Effect.dieMessage("the new key was not returned"))
        })).pipe(Effect.catchTag("SqlError", Effect.die))
      }).pipe(Effect.withSpan("SiliconKeys.add"))

    /** Revokes a live key; assertions it signs are refused from then on. */
    const revoke = (siliconUuid: string, id: string) =>
      Effect.gen(function*() {
        const at = yield* now
        const revoked = yield* sql`
          UPDATE silicon_keys SET revoked_at = ${at}
          WHERE silicon_uuid = ${siliconUuid} AND id = ${id} AND revoked_at IS NULL
          RETURNING id
        `.pipe(Effect.orDie)
        if (revoked.length === 0) {
          return yield* new KeyNotFound({ message: "This Silicon has no live key with this id." })
        }
      })

    return { listLive, findLive, add, revoke } as const
  })
}) {}
