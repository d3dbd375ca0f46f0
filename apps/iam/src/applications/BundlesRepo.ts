import { SqlClient } from "@effect/sql"
import { rowsDecoder, violatedConstraint } from "@platform/database"
import { Effect, Option, Schema } from "effect"
import { BundleIdTaken } from "./errors.ts"

const BundleRow = Schema.Struct({
  bundle_id: Schema.String,
  created_at: Schema.DateFromSelf,
  app_ids: Schema.Array(Schema.String)
})
export type BundleRow = typeof BundleRow.Type
const decodeBundles = rowsDecoder(BundleRow)

/** Bundles of applications. Database failures are defects, except a taken bundle_id. */
export class BundlesRepo extends Effect.Service<BundlesRepo>()("iam/BundlesRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /** The bundle and its members in order, in the caller's transaction. */
    const insert = (bundleId: string, appIds: ReadonlyArray<string>, at: Date): Effect.Effect<void, BundleIdTaken> =>
      Effect.gen(function*() {
        yield* sql.withTransaction(sql`insert into application_bundles (bundle_id, created_at) values (${bundleId}, ${at})`).pipe(
          Effect.catchTag("SqlError", (error) =>
            violatedConstraint(error) === "application_bundles_pkey"
              ? Effect.fail(new BundleIdTaken({ message: `A bundle already has the id ${JSON.stringify(bundleId)}.` }))
              : Effect.die(error))
        )
        yield* sql`insert into application_bundle_members ${
          sql.insert(appIds.map((appId, position) => ({ bundle_id: bundleId, app_id: appId, position })))
        }`.pipe(Effect.orDie)
      })

    const find = (bundleId: string): Effect.Effect<Option.Option<BundleRow>> =>
      sql`
        select b.bundle_id, b.created_at,
          coalesce((select jsonb_agg(m.app_id order by m.position) from application_bundle_members m where m.bundle_id = b.bundle_id), '[]'::jsonb) as app_ids
        from application_bundles b where b.bundle_id = ${bundleId}
      `.pipe(Effect.flatMap(decodeBundles), Effect.orDie, Effect.map((rows) => Option.fromNullable(rows[0])))

    return { insert, find } as const
  })
}) {}
