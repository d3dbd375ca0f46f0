import * as Reactivity from "@effect/experimental/Reactivity"
import { PgClient } from "@effect/sql-pg"
import { SqlError } from "@effect/sql/SqlError"
import { Duration, Effect, Redacted, type Scope } from "effect"
import Pg from "pg"
import { makePool } from "./pgPool.ts"
import { DatabaseError, describeCause } from "./database-error.ts"

/**
 * How long a pool waits. pg applies `connect` both to opening a connection and to waiting
 * for a free one in the pool, so an unreachable server fails instead of hanging; `query`
 * bounds each statement on our side (a black-holed server never answers) and on the server's
 * (statement_timeout), so that a request answers within a bounded time in an outage.
 */
export interface PoolTimeouts {
  readonly connect: Duration.Duration
  readonly query?: Duration.Duration
}

/** Opening the database at start and the embedded database (one connection, requests queue for it). */
export const patientTimeouts: PoolTimeouts = { connect: Duration.seconds(10) }

export interface PgTarget {
  /** Where we connect, for messages: never contains a password. */
  readonly description: string
  readonly scrub?: (text: string) => string
}

/** Where to connect: a URL, or (the embedded database) a socket directory and port. */
export interface PgConnection {
  readonly url?: Redacted.Redacted<string>
  readonly host?: string
  readonly port?: number
  readonly username?: string
  readonly database?: string
  readonly maxConnections: number
  readonly timeouts?: PoolTimeouts
}

/** What answers at the other end: a PostgreSQL server, or PGlite served over a socket (one session for every client). */
export type ServerKind = "postgresql" | "pglite"

/**
 * Opens an `@effect/sql-pg` client. Column and parameter names are not transformed:
 * SQL names stay exactly as written (snake_case).
 *
 * It first asks the server what it is. Named prepared statements (`keepPlans`) are only safe
 * where each connection is a session of its own, that is on a PostgreSQL server: PGlite's socket
 * server gives every client the same session, where two processes preparing the same statement
 * collide ("prepared statement … already exists") and interleaved transactions would mix. On
 * PGlite the client therefore sends unnamed statements over one connection, whatever was asked.
 */
export const connectPg = (
  connection: PgConnection,
  target: PgTarget,
  options: { readonly keepPlans?: boolean } = {}
): Effect.Effect<PgClient.PgClient, DatabaseError, Scope.Scope> =>
  Effect.map(openPg(connection, target, options), (opened) => opened.client)

/** An opened client, with the pool under it and what answers at the other end. */
export interface OpenedPg {
  readonly client: PgClient.PgClient
  readonly pool: Pg.Pool
  readonly kind: ServerKind
}

/** `connectPg`, keeping the pool and the server's kind (for connections of one's own, such as a listener). */
export const openPg = (
  connection: PgConnection,
  target: PgTarget,
  options: { readonly keepPlans?: boolean } = {}
): Effect.Effect<OpenedPg, DatabaseError, Scope.Scope> =>
  Effect.gen(function*() {
    const { kind, pool } = yield* openPool(connection, options.keepPlans === true)
    const client = yield* PgClient.fromPool({ acquire: Effect.succeed(pool) })
    return { client, pool, kind }
  }).pipe(
    Effect.provideServiceEffect(Reactivity.Reactivity, Reactivity.make),
    Effect.mapError((error) => {
      const reason = describeCause(error)
      const message = `could not connect to ${target.description}: ${reason}`
      return new DatabaseError({ message: target.scrub ? target.scrub(message) : message, cause: error })
    })
  )

const poolConfig = (connection: PgConnection): Pg.PoolConfig => {
  const timeouts = connection.timeouts ?? patientTimeouts
  // The server cuts a statement at the same deadline, so an abandoned one holds no lock past it.
  const query = timeouts.query === undefined ? {} : { statement_timeout: Duration.toMillis(timeouts.query) }
  return {
    connectionString: connection.url === undefined ? undefined : Redacted.value(connection.url),
    host: connection.host,
    port: connection.port,
    user: connection.username,
    database: connection.database,
    max: connection.maxConnections,
    connectionTimeoutMillis: Duration.toMillis(timeouts.connect),
    ...query,
    application_name: "@effect/sql-pg"
  }
}

/** `select version()` on a connection of its own, closed at once. */
export const serverKindOf = (config: Pg.ClientConfig): Promise<ServerKind> => {
  const client = new Pg.Client(config)
  client.on("error", () => {})
  return client.connect()
    .then(() => client.query<{ version: string }>("select version()"))
    .then((result) => (result.rows[0]?.version.includes("PGlite") ? "pglite" : "postgresql"))
    .finally(() => client.end().catch(() => {}))
}

const openPool = (connection: PgConnection, keepPlans: boolean) =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: async () => {
        const config = poolConfig(connection)
        const kind = await serverKindOf(config)
        const query = connection.timeouts?.query
        const pool = makePool(kind === "pglite" ? { ...config, max: 1 } : config, {
          keepPlans: kind === "postgresql" && keepPlans,
          ...(query === undefined ? {} : { queryDeadlineMillis: Duration.toMillis(query) })
        })
        pool.on("error", () => {})
        try {
          await pool.query("SELECT 1")
        } catch (cause) {
          await pool.end()
          throw cause
        }
        return { kind, pool }
      },
      catch: (cause) => new SqlError({ cause, message: "PgClient: Failed to connect" })
    }),
    ({ pool }) => Effect.promise(() => pool.end()).pipe(Effect.timeoutOption(1000))
  )
