import { Clock, Duration, Effect, Option } from "effect"
import type { FeedEvent } from "./EventFeedReader.ts"
import { type ClosedReason, closedFrame, eventFrame, HEARTBEAT_FRAME, openingFrame } from "./frames.ts"
import type { FeedPosition } from "./StreamCursor.ts"
import type { Tick } from "./StreamTicker.ts"

/** The stream's rhythm (spec 1, Events: Stream; Limits: Event streams). */
export interface StreamTimings {
  readonly pollEvery: Duration.Duration
  /** Events read at most per read; a full read reads again at once. */
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

/** What one stream reads and checks, bound to its receiver, and where it sends its frames. */
export interface FrameSource {
  /** At most `batch` events after the position, in commit order. */
  readonly read: (after: FeedPosition, batch: number) => Effect.Effect<ReadonlyArray<FeedEvent>>
  /** Every `recheckEvery`: the reason to end when the credentials are no longer good, and the lease renewed. */
  readonly recheck: Effect.Effect<Option.Option<ClosedReason>>
  /** Until the stream's next look (the process's ticker, every `pollEvery`), or the server shutting down. */
  readonly next: Effect.Effect<Tick>
  /** Sends one frame to the client (waiting while the client is slow to read). */
  readonly send: (frame: string) => Effect.Effect<void>
}

/**
 * Runs one stream from `from`: sends the opening `retry:`, then at every tick the events that settled
 * since (a full read reads again at once), a heartbeat comment after `heartbeatAfter` without a frame,
 * and `stream.closed` as the last frame when the stream reaches its longest duration, the credentials
 * fail a recheck, or the server shuts down. Ends after the last frame.
 */
export const runEventFrames = (
  source: FrameSource,
  from: FeedPosition,
  startedAt: number,
  timings: StreamTimings = STREAM_TIMINGS
): Effect.Effect<void> =>
  Effect.gen(function*() {
    const heartbeatAfter = Duration.toMillis(timings.heartbeatAfter)
    const recheckEvery = Duration.toMillis(timings.recheckEvery)
    const endsAt = startedAt + Duration.toMillis(timings.maxDuration)
    let position = from
    let lastSentAt = startedAt
    let nextCheckAt = startedAt + recheckEvery
    const close = (closed: ClosedReason) => source.send(closedFrame(position, closed))

    yield* source.send(openingFrame(timings.reconnectAfter, from))
    for (;;) {
      if ((yield* source.next) === "shutdown") return yield* close({ reason: "server_shutdown" })
      const at = yield* Clock.currentTimeMillis
      if (at >= endsAt) return yield* close({ reason: "max_duration" })
      if (at >= nextCheckAt) {
        const refused = yield* source.recheck
        if (Option.isSome(refused)) return yield* close(refused.value)
        nextCheckAt = at + recheckEvery
      }
      let events: ReadonlyArray<FeedEvent>
      do {
        events = yield* source.read(position, timings.batch)
        for (const event of events) yield* source.send(eventFrame(event))
        if (events.length > 0) {
          position = events[events.length - 1]!.position
          lastSentAt = at
        }
      } while (events.length === timings.batch)
      if (at - lastSentAt >= heartbeatAfter) {
        yield* source.send(HEARTBEAT_FRAME)
        lastSentAt = at
      }
    }
  })
