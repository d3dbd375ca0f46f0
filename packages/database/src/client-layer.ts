import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Context, Effect, Layer, type Scope } from "effect"
import type { DatabaseError } from "./database-error.ts"
import { type Migrations, runMigrations } from "./migrations.ts"
import { inRealTime } from "./real-time.ts"

/** A layer of the client that `connect` opens, with the migrations applied before anyone uses it. */
export const clientLayer = (
  connect: Effect.Effect<PgClient.PgClient, DatabaseError, Scope.Scope>,
  migrations: Migrations
): Layer.Layer<SqlClient.SqlClient | PgClient.PgClient, DatabaseError> =>
  Layer.scopedContext(
    Effect.gen(function*() {
      const client = yield* connect
      yield* runMigrations(migrations).pipe(Effect.provideService(SqlClient.SqlClient, client))
      return Context.make(PgClient.PgClient, client).pipe(Context.add(SqlClient.SqlClient, client))
    }).pipe(inRealTime)
  )
