import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Context, Effect, Layer, type Scope } from "effect"
import { CommittedChanges, followCommittedChanges, noCommittedChanges } from "./committed-changes.ts"
import type { DatabaseError } from "./database-error.ts"
import { type Migrations, runMigrations } from "./migrations.ts"
import { Notifications, notificationsOf } from "./notifications.ts"
import type { OpenedPg } from "./pg-connection.ts"
import { inRealTime } from "./real-time.ts"

type Connect = Effect.Effect<PgClient.PgClient, DatabaseError, Scope.Scope>

/** What a service's database layer gives: the client, and what the database can push. */
export type DatabaseServices = SqlClient.SqlClient | PgClient.PgClient | Notifications | CommittedChanges

/**
 * A layer of the client that `open` opens, with the migrations applied before anyone uses it:
 * on a client of their own when `connectToMigrate` is given (one without the serving pool's
 * statement timeout, since a migration may wait for another process's or take long), closed after.
 */
export const clientLayer = (
  open: Effect.Effect<OpenedPg, DatabaseError, Scope.Scope>,
  migrations: Migrations,
  connectToMigrate?: Connect
): Layer.Layer<DatabaseServices, DatabaseError> =>
  Layer.scopedContext(
    Effect.gen(function*() {
      const migrate = (client: PgClient.PgClient) =>
        runMigrations(migrations).pipe(Effect.provideService(SqlClient.SqlClient, client))
      if (connectToMigrate !== undefined) yield* Effect.scoped(Effect.flatMap(connectToMigrate, migrate))
      const { client, kind, pool } = yield* open
      if (connectToMigrate === undefined) yield* migrate(client)
      const notifications = yield* notificationsOf(client)
      const changes = kind === "postgresql" ? yield* followCommittedChanges(pool.options) : noCommittedChanges
      return Context.make(PgClient.PgClient, client).pipe(
        Context.add(SqlClient.SqlClient, client),
        Context.add(Notifications, notifications),
        Context.add(CommittedChanges, changes)
      )
    }).pipe(inRealTime)
  )
