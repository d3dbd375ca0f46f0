import { SqlClient } from "@effect/sql"
import { type ConfigError, Duration, Effect, Layer, Option, type Redacted } from "effect"
import { clientLayer, type DatabaseServices } from "./client-layer.ts"
import { DatabaseConfig } from "./database-config.ts"
import { DatabaseError, describeCause } from "./database-error.ts"
import { parseDatabaseUrl } from "./database-url.ts"
import { openEmbeddedDatabase, socketPort } from "./embedded/embedded-database.ts"
import type { Migrations } from "./migrations.ts"
import { connectPg, openPg, type PoolTimeouts } from "./pg-connection.ts"
import { inRealTime } from "./real-time.ts"

export interface DatabaseOptions {
  /** PostgreSQL to use; none: the embedded PostgreSQL (PGlite) kept in `dataDir`. */
  readonly url: Option.Option<Redacted.Redacted<string>>
  readonly dataDir: string
  readonly migrations: Migrations
  /** Pool size against a PostgreSQL URL (default 10). The embedded database always uses one connection. */
  readonly maxConnections?: number
  /**
   * Send parameterized statements as named prepared statements (planned once per connection).
   * Taken only where the server is a real PostgreSQL (see `connectPg`): a URL that leads to
   * PGlite gets unnamed statements on one connection. Default false; `layerConfig` (a
   * service's configured database URL) turns it on.
   */
  readonly keepPlans?: boolean
}

const defaultMaxConnections = 10

/**
 * A PostgreSQL server can go away, or stop answering: a request then waits at most 2 seconds
 * for a connection and 2 more for a statement, and answers 503 (see isDatabaseUnavailable).
 * A statement taking longer is cut by the server too, so it holds no lock past that.
 */
const outageTimeouts: PoolTimeouts = { connect: Duration.seconds(2), query: Duration.seconds(2) }

/**
 * The service's database, migrated, for as long as the layer lives. Closing it closes the
 * pool and, for the embedded database this process hosts, stops serving it and closes it cleanly.
 */
export const layer = (options: DatabaseOptions): Layer.Layer<DatabaseServices, DatabaseError> =>
  clientLayer(
    Option.match(options.url, {
      onNone: () =>
        Effect.flatMap(openEmbeddedDatabase(options.dataDir), (embedded) =>
          openPg(
            {
              host: embedded.socketDirectory,
              port: socketPort,
              username: "postgres",
              database: "postgres",
              // PGlite is a single session: with one connection everything serializes, transactions included.
              maxConnections: 1
            },
            { description: `the embedded PostgreSQL in ${embedded.socketDirectory}` }
          )),
      onSome: (url) =>
        Effect.flatMap(parseDatabaseUrl(url), (parsed) =>
          openPg(
            {
              url: parsed.url,
              maxConnections: options.maxConnections ?? defaultMaxConnections,
              timeouts: outageTimeouts
            },
            parsed,
            { keepPlans: options.keepPlans ?? false }
          ).pipe(Effect.tap(Effect.logInfo(`connected to PostgreSQL at ${parsed.description}`))))
    }),
    options.migrations,
    Option.map(options.url, (url) =>
      Effect.flatMap(parseDatabaseUrl(url), (parsed) => connectPg({ url: parsed.url, maxConnections: 1 }, parsed)))
      .pipe(Option.getOrUndefined)
  )

export const layerConfig = (options: {
  readonly prefix: string
  readonly service: string
  readonly migrations: Migrations
}): Layer.Layer<DatabaseServices, DatabaseError | ConfigError.ConfigError> =>
  Layer.unwrapEffect(
    Effect.map(
      DatabaseConfig(options),
      (config) => layer({ url: config.url, dataDir: config.dataDir, migrations: options.migrations, keepPlans: true })
    )
  )

const pingTimeout = "2 seconds"

/** `select 1` within 2 seconds, for readiness probes: fails while the database is unreachable. */
export const ping: Effect.Effect<void, DatabaseError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`select 1`.pipe(
    Effect.mapError((error) =>
      new DatabaseError({ message: `database unreachable: ${describeCause(error)}`, cause: error })
    ),
    // Don't wait for the abandoned query to be cancelled: the probe must answer on time.
    Effect.disconnect,
    Effect.timeoutFail({
      duration: pingTimeout,
      onTimeout: () => new DatabaseError({ message: `database did not answer within ${pingTimeout}` })
    })
  )
}).pipe(inRealTime)
