import { Chunk, Clock, Deferred, Duration, Effect, Option, Stream } from "effect"
import type { FeedEvent } from "./EventFeedReader.ts"
import { type ClosedReason, closedFrame, eventFrame, HEARTBEAT_FRAME, openingFrame } from "./frames.ts"
import type { FeedPosition } from "./StreamCursor.ts"

/** The stream's rhythm (spec 1, Events: Stream; Limits: Event streams). */
export interface StreamTimings {
  readonly pollEvery: Duration.Duration
  /** Events read at most per look; a full read looks again at once. */
  readonly batch: number
  readonly heartbeatAfter: Duration.Duration
  readonly recheckEvery: Duration.Duration
  readonly maxDuration: Duration.Duration
  /** The `retry:` the stream tells clients. */
  readonly reconnectAfter: Duration.Duration
}

export const STREAM_TIMINGS: StreamTimings = {
  pollEvery: Duration.seconds(1),
  batch: 100,
  heartbeatAfter: Duration.seconds(15),
  recheckEvery: Duration.seconds(30),
  maxDuration: Duration.hours(1),
  reconnectAfter: Duration.seconds(5)
}

/** What one stream reads and checks, bound to its receiver. */
export interface FrameSource {
  /** At most `batch` events after the position, in commit order. */
  readonly read: (after: FeedPosition, batch: number) => Effect.Effect<ReadonlyArray<FeedEvent>>
  /** Every `recheckEvery`: the reason to end when the credentials are no longer good, and the lease renewed. */
  readonly recheck: Effect.Effect<Option.Option<ClosedReason>>
  /** Completed when the server shuts down: the stream ends at once with `server_shutdown`. */
  readonly shutdown: Deferred.Deferred<void>
}

interface Step {
  readonly position: FeedPosition
  readonly lastSentAt: number
  readonly nextCheckAt: number
  readonly hurry: boolean
}

/**
 * The frames of one stream from `from`: the opening `retry:`, then every second the events that
 * settled since, a heartbeat comment after `heartbeatAfter` without a frame, and `stream.closed`
 * as the last frame when the stream reaches its longest duration, the credentials fail a
 * recheck, or the server shuts down.
 */
export const eventFrames = (
  source: FrameSource,
  from: FeedPosition,
  startedAt: number,
  timings: StreamTimings = STREAM_TIMINGS
): Stream.Stream<string> => {
  const pollEvery = Duration.toMillis(timings.pollEvery)
  const heartbeatAfter = Duration.toMillis(timings.heartbeatAfter)
  const recheckEvery = Duration.toMillis(timings.recheckEvery)
  const endsAt = startedAt + Duration.toMillis(timings.maxDuration)
  // True when the server began shutting down.
  const waitForNextLook = (hurry: boolean) =>
    hurry
      ? Deferred.isDone(source.shutdown)
      : Effect.raceFirst(
        Effect.as(Effect.sleep(pollEvery), false),
        Effect.as(Deferred.await(source.shutdown), true)
      )
  const last = (position: FeedPosition, closed: ClosedReason) =>
    [Chunk.of(closedFrame(position, closed)), Option.none<Step>()] as const

  const look = (step: Step): Effect.Effect<readonly [Chunk.Chunk<string>, Option.Option<Step>]> =>
    Effect.gen(function*() {
      if (yield* waitForNextLook(step.hurry)) return last(step.position, { reason: "server_shutdown" })
      const at = yield* Clock.currentTimeMillis
      if (at >= endsAt) return last(step.position, { reason: "max_duration" })
      let nextCheckAt = step.nextCheckAt
      if (at >= nextCheckAt) {
        const refused = yield* source.recheck
        if (Option.isSome(refused)) return last(step.position, refused.value)
        nextCheckAt = at + recheckEvery
      }
      const events = yield* source.read(step.position, timings.batch)
      if (events.length > 0) {
        const position = events[events.length - 1]!.position
        const next: Step = { position, lastSentAt: at, nextCheckAt, hurry: events.length === timings.batch }
        return [Chunk.fromIterable(events.map(eventFrame)), Option.some(next)] as const
      }
      const idle = at - step.lastSentAt >= heartbeatAfter
      const next: Step = { ...step, lastSentAt: idle ? at : step.lastSentAt, nextCheckAt, hurry: false }
      return [idle ? Chunk.of(HEARTBEAT_FRAME) : Chunk.empty<string>(), Option.some(next)] as const
    })

  return Stream.concat(
    Stream.make(openingFrame(timings.reconnectAfter, from)),
    Stream.paginateChunkEffect(
      { position: from, lastSentAt: startedAt, nextCheckAt: startedAt + recheckEvery, hurry: false } satisfies Step,
      look
    )
  )
}
