import { randomToken } from "@platform/crypto"
import { now } from "@platform/service"
import { Duration, Effect, Exit, type Fiber, FiberSet, Option } from "effect"
import { AccountsConfig } from "../config.ts"
import { StreamCapacityReached, TooManyStreams } from "./errors.ts"
import { EventFeedReader } from "./EventFeedReader.ts"
import { runEventFrames, STREAM_TIMINGS } from "./eventFrames.ts"
import type { ClosedReason } from "./frames.ts"
import { OpenStreamsRepo } from "./OpenStreamsRepo.ts"
import type { FeedPosition } from "./StreamCursor.ts"
import { makeStreamTicker } from "./StreamTicker.ts"

/** Streams open at once per app or account, counted across processes (spec 1, Limits). */
export const STREAMS_PER_RECEIVER = 5
/** A running stream renews its row with each recheck; a row this old belongs to a stopped process. */
export const STREAM_LEASE = Duration.seconds(90)
/** A receiver at its limit retries when a stream ends or a stopped process's row lapses. */
const TOO_MANY_RETRY_AFTER_SECONDS = 30
/** How long a shutdown waits for open streams to send their stream.closed. */
const SHUTDOWN_GRACE = Duration.seconds(5)
/** A full server: another server behind the same address may have room at once. */
const CAPACITY_RETRY_AFTER_SECONDS = 5

export interface StreamRequest {
  readonly receiver: string
  /** Undefined: every type. */
  readonly types: ReadonlyArray<string> | undefined
  /** Last-Event-ID; undefined starts with what has not settled yet. */
  readonly from: FeedPosition | undefined
  /** Undefined while the credentials are good; else why the stream ends. */
  readonly recheck: Effect.Effect<Option.Option<ClosedReason>>
}

export interface OpenedStream {
  /**
   * Starts the stream in the background (a fiber of the server's, not of the request), sending its frames
   * with `send`; the fiber ends after the last frame and gives the stream's places back.
   */
  readonly start: (send: (frame: string) => Effect.Effect<void>) => Effect.Effect<Fiber.RuntimeFiber<void>>
  /** Gives back the stream's places; runs once however often it is called (the stream's end calls it). */
  readonly release: Effect.Effect<void>
}

/**
 * Opens event streams within the limits: `streamsPerServer` in this process (counted in memory, it is
 * this server's own), 5 per receiver across processes (the `event_streams` table, with leases). Ends
 * every open stream with `stream.closed` (reason `server_shutdown`) when the server's layers close,
 * so a drain does not wait for streams to reach their hour.
 */
const makeEventStreams = Effect.gen(function*() {
  const config = yield* AccountsConfig
  const feed = yield* EventFeedReader
  const leases = yield* OpenStreamsRepo
  // Made before the finalizer below, so closed after it: the streams first get to send stream.closed.
  const running = yield* FiberSet.make<void>()
  const ticker = yield* makeStreamTicker(STREAM_TIMINGS.pollEvery)
  // A client too slow to take its last frame does not hold the shutdown up: its stream is cut after a while.
  yield* Effect.addFinalizer(() =>
    Effect.zipRight(ticker.stop, Effect.ignore(Effect.timeout(FiberSet.awaitEmpty(running), SHUTDOWN_GRACE)))
  )
  let openHere = 0

  const open = (request: StreamRequest): Effect.Effect<OpenedStream, TooManyStreams | StreamCapacityReached> =>
    Effect.suspend((): Effect.Effect<OpenedStream, TooManyStreams | StreamCapacityReached> => {
      if (openHere >= config.streamsPerServer) {
        return Effect.fail(
          new StreamCapacityReached({
            message: "This server has as many event streams open as it takes; retry shortly.",
            details: { retry_after_seconds: CAPACITY_RETRY_AFTER_SECONDS }
          })
        )
      }
      openHere++
      const id = randomToken("str_", 16)
      let released = false
      const release = Effect.suspend(() => {
        if (released) return Effect.void
        released = true
        openHere--
        return leases.close(id)
      })
      return Effect.gen(function*() {
        const openedAt = yield* now
        const leaseUntil = (at: Date) => new Date(at.getTime() + Duration.toMillis(STREAM_LEASE))
        const lease = { id, receiver: request.receiver, openedAt, leaseUntil: leaseUntil(openedAt) }
        if (!(yield* leases.open(lease, STREAMS_PER_RECEIVER))) {
          return yield* new TooManyStreams({
            message: `${STREAMS_PER_RECEIVER} event streams are open for these credentials already; close one or retry later.`,
            details: { limit: STREAMS_PER_RECEIVER, retry_after_seconds: TOO_MANY_RETRY_AFTER_SECONDS }
          })
        }
        const from = request.from ?? (yield* feed.startPosition)
        const recheck = Effect.tap(request.recheck, (refused) =>
          Option.isSome(refused)
            ? Effect.void
            : Effect.flatMap(now, (at) => leases.renew({ ...lease, leaseUntil: leaseUntil(at) })))
        const start = (send: (frame: string) => Effect.Effect<void>) =>
          runEventFrames(
            {
              read: (after, batch) => feed.read(request.receiver, request.types, after, batch),
              recheck,
              next: ticker.next,
              send
            },
            from,
            openedAt.getTime(),
            STREAM_TIMINGS
          ).pipe(ticker.member, Effect.ensuring(release), FiberSet.run(running))
        return { start, release }
      }).pipe(Effect.onExit((exit) => Exit.isSuccess(exit) ? Effect.void : release))
    })

  return {
    open,
    /** Whether every stream open here is between looks (for tests that move the clock a look at a time). */
    allWaiting: ticker.allWaiting
  } as const
})

export class EventStreams extends Effect.Service<EventStreams>()("accounts/EventStreams", {
  scoped: makeEventStreams,
  dependencies: [EventFeedReader.Default, OpenStreamsRepo.Default]
}) {}
