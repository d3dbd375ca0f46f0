import * as Reactivity from "@effect/experimental/Reactivity"
import { PgClient } from "@effect/sql-pg"
import { Duration, Effect, type Scope } from "effect"
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
  target: PgTarget
): Effect.Effect<PgClient.PgClient, DatabaseError, Scope.Scope> =>
  PgClient.make({ connectTimeout, ...config }).pipe(
    Effect.provideServiceEffect(Reactivity.Reactivity, Reactivity.make),
    Effect.mapError((error) => {
      const reason = describeCause(error)
      const message = `could not connect to ${target.description}: ${reason}`
      return new DatabaseError({ message: target.scrub ? target.scrub(message) : message, cause: error })
    })
  )
