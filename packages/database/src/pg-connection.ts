import * as Reactivity from "@effect/experimental/Reactivity"
import { PgClient } from "@effect/sql-pg"
import { SqlError } from "@effect/sql/SqlError"
import { Duration, Effect, Redacted, type Scope } from "effect"
import { planKeepingPool } from "./planKeepingPool.ts"
import { DatabaseError, describeCause } from "./database-error.ts"

/**
 * pg applies this both to opening a connection and to waiting for a free one in the pool,
 * so an unreachable server fails the start (and later queries) instead of hanging.
 */
export const connectTimeout = Duration.seconds(10)

export interface PgTarget {
  /** Where we connect, for messages: never contains a password. */
  readonly description: string
  readonly scrub?: (text: string) => string
}

/**
 * Opens an `@effect/sql-pg` client. Column and parameter names are not transformed:
 * SQL names stay exactly as written (snake_case).
 */
export const connectPg = (
  config: PgClient.PgClientConfig,
  target: PgTarget,
  options: { readonly keepPlans?: boolean } = {}
): Effect.Effect<PgClient.PgClient, DatabaseError, Scope.Scope> =>
  (options.keepPlans === true ? planKeepingClient(config) : PgClient.make({ connectTimeout, ...config })).pipe(
    Effect.provideServiceEffect(Reactivity.Reactivity, Reactivity.make),
    Effect.mapError((error) => {
      const reason = describeCause(error)
      const message = `could not connect to ${target.description}: ${reason}`
      return new DatabaseError({ message: target.scrub ? target.scrub(message) : message, cause: error })
    })
  )

/**
 * The same client over a pool of plan-keeping connections (see planKeepingPool.ts): for a
 * PostgreSQL server, where each connection is a session of its own.
 */
const planKeepingClient = (config: PgClient.PgClientConfig) =>
  PgClient.fromPool({
    acquire: Effect.acquireRelease(
      Effect.tryPromise({
        try: async () => {
          const pool = planKeepingPool({
            connectionString: config.url === undefined ? undefined : Redacted.value(config.url),
            max: config.maxConnections,
            connectionTimeoutMillis: Duration.toMillis(connectTimeout),
            application_name: "@effect/sql-pg"
          })
          pool.on("error", () => {})
          try {
            await pool.query("SELECT 1")
          } catch (cause) {
            await pool.end()
            throw cause
          }
          return pool
        },
        catch: (cause) => new SqlError({ cause, message: "PgClient: Failed to connect" })
      }),
      (pool) => Effect.promise(() => pool.end()).pipe(Effect.timeoutOption(1000))
    )
  })
