import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Context, Effect, Layer, type Scope } from "effect"
import type { DatabaseError } from "./database-error.ts"
import { type Migrations, runMigrations } from "./migrations.ts"
import { Notifications, notificationsOf } from "./notifications.ts"
import { inRealTime } from "./real-time.ts"

type Connect = Effect.Effect<PgClient.PgClient, DatabaseError, Scope.Scope>

/**
 * A layer of the client that `connect` opens, with the migrations applied before anyone uses it:
 * on a client of their own when `connectToMigrate` is given (one without the serving pool's
 * statement timeout, since a migration may wait for another process's or take long), closed after.
 */
export const clientLayer = (
  connect: Connect,
  migrations: Migrations,
  connectToMigrate?: Connect
): Layer.Layer<SqlClient.SqlClient | PgClient.PgClient | Notifications, DatabaseError> =>
  Layer.scopedContext(
    Effect.gen(function*() {
      const migrate = (client: PgClient.PgClient) =>
        runMigrations(migrations).pipe(Effect.provideService(SqlClient.SqlClient, client))
      if (connectToMigrate !== undefined) yield* Effect.scoped(Effect.flatMap(connectToMigrate, migrate))
      const client = yield* connect
      if (connectToMigrate === undefined) yield* migrate(client)
      const notifications = yield* notificationsOf(client)
      return Context.make(PgClient.PgClient, client).pipe(
        Context.add(SqlClient.SqlClient, client),
        Context.add(Notifications, notifications)
      )
    }).pipe(inRealTime)
  )
