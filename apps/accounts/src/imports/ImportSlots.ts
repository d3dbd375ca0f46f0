import { Duration, Effect } from "effect"
import { ImportsBusy } from "./errors.ts"
import { IMPORT_LIMITS } from "./importLimits.ts"

/**
 * The server's parse slots (spec 1: 2 parses at once per server). A request waits for one up to
 * `waitSeconds` (measured by the Clock), then is refused with 503 imports_busy and Retry-After 15.
 * One per process: provide the same `ImportSlots.Default` wherever it is needed.
 */
export class ImportSlots extends Effect.Service<ImportSlots>()("accounts/ImportSlots", {
  effect: Effect.gen(function*() {
    const slots = yield* Effect.makeSemaphore(IMPORT_LIMITS.parsesAtOnce)
    const withSlot = <A, E, R>(waitSeconds: number, use: Effect.Effect<A, E, R>): Effect.Effect<A, E | ImportsBusy, R> =>
      Effect.uninterruptibleMask((restore) =>
        restore(slots.take(1)).pipe(
          Effect.timeoutFail({
            duration: Duration.seconds(waitSeconds),
            onTimeout: () =>
              new ImportsBusy({
                message: `This server is already parsing ${IMPORT_LIMITS.parsesAtOnce} imports; none finished within ${waitSeconds} seconds.`,
                hint: `Retry after ${IMPORT_LIMITS.busyRetryAfterSeconds} seconds.`,
                details: { retry_after_seconds: IMPORT_LIMITS.busyRetryAfterSeconds }
              })
          }),
          // Once the slot is taken it is given back whatever happens, with no gap between the two.
          Effect.flatMap(() => Effect.ensuring(restore(use), slots.release(1)))
        )
      )
    return { withSlot } as const
  })
}) {}
