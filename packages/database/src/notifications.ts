import type { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import type { PgClient } from "@effect/sql-pg"
import { Context, Effect, Stream } from "effect"

/**
 * PostgreSQL's LISTEN/NOTIFY, where the database can push: a NOTIFY sent inside a transaction
 * reaches listeners when it commits, in any process. The embedded database cannot push to its
 * clients (one session behind a socket), so there `listen` yields nothing and callers keep
  * polling; a listener must treat a notification as a hint to look, never as the only way to learn.
 */
export class Notifications extends Context.Tag("@platform/database/Notifications")<Notifications, {
  readonly listen: (channel: string) => Stream.Stream<string, SqlError>
}>() {}

/** The notifications of `client`: LISTEN on a PostgreSQL server (a connection held per channel), none on PGlite. */
export const notificationsOf = (client: PgClient.PgClient): Effect.Effect<Context.Tag.Service<Notifications>> =>
  Effect.map(
    client`select version() AS version`.pipe(
      Effect.map((rows) => String(rows[0]?.["version"] ?? "").includes("PGlite")),
      Effect.orElseSucceed(() => true)
    ),
    (pglite) => ({ listen: (channel: string) => pglite ? Stream.never : client.listen(channel) })
  )

/**
 * Inside the caller's transaction: wakes `channel`'s listeners once it commits (nothing if it rolls back).
 * The payload is a fixed word: the client drops empty ones, and PostgreSQL folds identical
 * notifications of one transaction into one, so a thousand jobs queued together wake once.
 */
export const notify = (sql: SqlClient.SqlClient, channel: string): Effect.Effect<void, SqlError> =>
  Effect.asVoid(sql`SELECT pg_notify(${channel}, 'wake')`)
