import type { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Duration, Effect, Layer, Schedule } from "effect"
import { now } from "./now.ts"
import { claimSweepLease } from "./sweepLease.ts"
import { doesSharedChores } from "./workerNumber.ts"

/** Retention sweeps run every 10 minutes (spec 1, Retention; every service keeps the same rhythm). */
export const SWEEP_INTERVAL = Duration.minutes(10)

/**
 * A sweep's lease lasts a little less than the interval: among processes on one database, one
 * sweeps per interval, and when it stops another takes over at its next turn.
 */
const LEASE = Duration.subtract(SWEEP_INTERVAL, Duration.seconds(30))

/** Runs `sweep` when this process wins the sweep's lease (see `claimSweepLease`); otherwise skips this turn. */
export const sweepUnderLease = <A, E, R>(
  name: string,
  sweep: Effect.Effect<A, E, R>
): Effect.Effect<{ readonly swept: A } | "skipped", E | SqlError, R | SqlClient.SqlClient> =>
  Effect.gen(function*() {
    const at = yield* now
    const won = yield* claimSweepLease(name, at, new Date(at.getTime() + Duration.toMillis(LEASE)))
    return won ? { swept: yield* sweep } : "skipped"
  })

/**
 * Runs `sweep` at once and then every 10 minutes for as long as the layer lives, one process at
 * a time across the database (`sweepUnderLease`). A failed sweep is logged and the next one runs
 * on schedule. Of several workers behind one port, worker 1 alone tries: the others would only
 * ask for a lease worker 1 already holds.
 */
export const periodicSweep = <A, E, R>(
  name: string,
  sweep: Effect.Effect<A, E, R>
): Layer.Layer<never, never, R | SqlClient.SqlClient> =>
  !doesSharedChores() ? Layer.empty : Layer.scopedDiscard(
    Effect.forkScoped(
      sweepUnderLease(name, sweep).pipe(
        Effect.tap((outcome) => Effect.logDebug({ event: "sweep", name, outcome })),
        Effect.catchAllCause((cause) => Effect.logWarning({ event: "sweep_failed", name }, cause)),
        Effect.repeat(Schedule.spaced(SWEEP_INTERVAL))
      )
    )
  )
