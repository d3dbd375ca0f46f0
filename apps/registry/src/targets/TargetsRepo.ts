import { SqlClient } from "@effect/sql"
import { rowsDecoder } from "@platform/database"
import { Effect, Schema } from "effect"

const Count = Schema.Union(Schema.Number, Schema.NumberFromString)
const decodePopulations = rowsDecoder(Schema.Struct({ target: Schema.String, population: Count }))
const decodeTotals = rowsDecoder(Schema.Struct({ reach: Count, population: Count }))

/** Who installed what, counted by account (anonymous installs count nowhere). */
export class TargetsRepo extends Effect.Service<TargetsRepo>()("registry/TargetsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return {
      /** Per target: the distinct accounts that installed a package of it. */
      populations: (targets: ReadonlyArray<string>) =>
        sql`
          select target, count(distinct account_uuid) as population from installs
          where account_uuid is not null and target in ${sql.in(targets)}
          group by target
        `.pipe(Effect.flatMap(decodePopulations), Effect.orDie),
      /** Accounts with an install of any of these targets, each once; and accounts with any install at all. */
      totals: (targets: ReadonlyArray<string>) =>
        sql`
          select
            count(distinct account_uuid) filter (where target in ${sql.in(targets)}) as reach,
            count(distinct account_uuid) as population
          from installs where account_uuid is not null
        `.pipe(Effect.flatMap(decodeTotals), Effect.map((rows) => rows[0] ?? { reach: 0, population: 0 }), Effect.orDie)
    }
  })
}) {}
