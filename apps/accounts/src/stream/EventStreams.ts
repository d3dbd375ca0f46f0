import { randomToken } from "@platform/crypto"
import { now } from "@platform/service"
import { Deferred, Duration, Effect, Exit, Option, Stream } from "effect"
import { AccountsConfig } from "../config.ts"
import { StreamCapacityReached, TooManyStreams } from "./errors.ts"
import { EventFeedReader } from "./EventFeedReader.ts"
import { eventFrames, STREAM_TIMINGS } from "./eventFrames.ts"
import type { ClosedReason } from "./frames.ts"
import { OpenStreamsRepo } from "./OpenStreamsRepo.ts"
import type { FeedPosition } from "./StreamCursor.ts"

/** Streams open at once per app or account, counted across processes (spec 1, Limits). */
export const STREAMS_PER_RECEIVER = 5
/** A running stream renews its row with each recheck; a row this old belongs to a stopped process. */
export const STREAM_LEASE = Duration.seconds(90)
/** A receiver at its limit retries when a stream ends or a stopped process's row lapses. */
const TOO_MANY_RETRY_AFTER_SECONDS = 30
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
  readonly frames: Stream.Stream<string>
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
  const shutdown = yield* Deferred.make<void>()
  yield* Effect.addFinalizer(() => Deferred.succeed(shutdown, undefined))
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
        const frames = eventFrames(
          {
            read: (after, batch) => feed.read(request.receiver, request.types, after, batch),
            recheck,
            shutdown
          },
          from,
          openedAt.getTime(),
          STREAM_TIMINGS
        ).pipe(Stream.ensuring(release))
        return { frames, release }
      }).pipe(Effect.onExit((exit) => Exit.isSuccess(exit) ? Effect.void : release))
    })

  return { open } as const
})

export class EventStreams extends Effect.Service<EventStreams>()("accounts/EventStreams", {
  scoped: makeEventStreams,
  dependencies: [EventFeedReader.Default, OpenStreamsRepo.Default]
}) {}
