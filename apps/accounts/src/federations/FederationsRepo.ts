import { SqlClient } from "@effect/sql"
import { rowsDecoder } from "@platform/database"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { FederationNotFound, TooManyFederations } from "./errors.ts"
import { FEDERATION_COLUMNS, FEDERATION_LIMITS, type FederationCondition, FederationRow } from "./Federation.ts"

const decodeRows = rowsDecoder(FederationRow)

export interface NewTrust {
  readonly name: string
  readonly issuer: string
  readonly audience: string
  readonly conditions: ReadonlyArray<FederationCondition>
}

/**
 * A Silicon's trusts in outside issuers: at most 20 live; removing one keeps its row.
 *
 * Database failures: SqlError is a defect (no caller can act on one).
 */
export class FederationsRepo extends Effect.Service<FederationsRepo>()("accounts/FederationsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /** Live trusts, newest first. */
    const listLive = (siliconUuid: string): Effect.Effect<ReadonlyArray<FederationRow>> =>
      sql`
        SELECT ${sql.literal(FEDERATION_COLUMNS)} FROM silicon_federations
        WHERE silicon_uuid = ${siliconUuid} AND revoked_at IS NULL
        ORDER BY created_at DESC, id
      `.pipe(Effect.orDie, Effect.flatMap(decodeRows))

    /** Every live trust in an issuer (its exact iss), of any Silicon. */
    const liveForIssuer = (issuer: string): Effect.Effect<ReadonlyArray<FederationRow>> =>
      sql`
        SELECT ${sql.literal(FEDERATION_COLUMNS)} FROM silicon_federations
        WHERE issuer = ${issuer} AND revoked_at IS NULL
      `.pipe(Effect.orDie, Effect.flatMap(decodeRows))

    /** Adds a trust. The Silicon's row is locked first, so concurrent additions count one after another. */
    const add = (siliconUuid: string, trust: NewTrust, now: Date): Effect.Effect<FederationRow, TooManyFederations> =>
      sql.withTransaction(Effect.gen(function*() {
        yield* sql`SELECT 1 FROM silicons WHERE account_uuid = ${siliconUuid} FOR UPDATE`
        const [live] = yield* sql<{ readonly count: number | string }>`
          SELECT count(*) AS count FROM silicon_federations WHERE silicon_uuid = ${siliconUuid} AND revoked_at IS NULL
        `
        if (Number(live?.count ?? 0) >= FEDERATION_LIMITS.liveTrusts) {
          return yield* new TooManyFederations({
            message: `A Silicon has at most ${FEDERATION_LIMITS.liveTrusts} live trusts; remove one first.`,
            details: { limit: FEDERATION_LIMITS.liveTrusts }
          })
        }
        const rows = yield* sql`
          INSERT INTO silicon_federations (id, silicon_uuid, name, issuer, audience, conditions, created_at)
          VALUES (${randomUUID()}, ${siliconUuid}, ${trust.name}, ${trust.issuer}, ${trust.audience},
                  ${JSON.stringify(trust.conditions)}::jsonb, ${now})
          RETURNING ${sql.literal(FEDERATION_COLUMNS)}
        `
        const [row] = yield* decodeRows(rows)
        return row ?? (yield* Effect.dieMessage("the new trust was not returned"))
      })).pipe(Effect.catchTag("SqlError", Effect.die), Effect.withSpan("FederationsRepo.add"))

    /** Removes a live trust: tokens it admitted sign nothing in from then on. */
    const revoke = (siliconUuid: string, id: string, now: Date): Effect.Effect<void, FederationNotFound> =>
      Effect.gen(function*() {
        const revoked = yield* sql`
          UPDATE silicon_federations SET revoked_at = ${now}
          WHERE silicon_uuid = ${siliconUuid} AND id = ${id} AND revoked_at IS NULL
          RETURNING id
        `.pipe(Effect.orDie)
        if (revoked.length === 0) {
          return yield* new FederationNotFound({ message: "This Silicon has no live trust with this id." })
        }
      })

    return { listLive, liveForIssuer, add, revoke } as const
  })
}) {}
