import { Notifications } from "@platform/database"
import { Duration, Effect, Option, Queue, type Scope, Stream } from "effect"
import type { QueueTable } from "./QueueTable.ts"
import { sleepInRealTime } from "./realTime.ts"

/** The channel on which a queue's new jobs are announced (NOTIFY), named after its table. */
export const wakeChannel = (queue: Pick<QueueTable<never, never>, "table">): string => `queue_${queue.table}`

const RELISTEN_AFTER = Duration.seconds(1)

/**
 * A worker's wait between passes: the poll interval, cut short when a job is announced on the
 * queue's channel (a NOTIFY of a committed enqueue, from any process). Where the database cannot
 * push (embedded) or no Notifications are provided, it is the plain poll. A lost listen
 * connection is opened again after a pause; meanwhile the poll goes on.
 */
export const makeWakeableWait = (
  channel: string,
  pollInterval: Duration.Duration
): Effect.Effect<Effect.Effect<void>, never, Scope.Scope> =>
  Effect.gen(function*() {
    const notifications = yield* Effect.serviceOption(Notifications)
    if (Option.isNone(notifications)) return sleepInRealTime(pollInterval)
    const wakes = yield* Queue.sliding<void>(1)
    yield* notifications.value.listen(channel).pipe(
      Stream.runForEach(() => Queue.offer(wakes, undefined)),
      Effect.catchAllCause((cause) => Effect.logWarning(`listening for jobs of ${channel} failed; polling meanwhile`, cause)),
      Effect.zipRight(sleepInRealTime(RELISTEN_AFTER)),
      Effect.forever,
      Effect.forkScoped
    )
    return Effect.raceFirst(sleepInRealTime(pollInterval), Queue.take(wakes))
  })
