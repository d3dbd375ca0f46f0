import { HttpServerResponse } from "@effect/platform"
import { NodeHttpServerRequest } from "@effect/platform-node"
import { Effect, FiberId, Layer, Option, Runtime } from "effect"
import { PassThrough } from "node:stream"
import { AccountsApi } from "../api.ts"
import { CallerCheck } from "./CallerCheck.ts"
import { EventStreams } from "./EventStreams.ts"
import { CurrentStreamCaller, receiverOf, StreamCallerAuthLive } from "./StreamCaller.ts"
import { parsePosition } from "./StreamCursor.ts"
import { compiledGroup } from "@platform/service"

/** Writes one frame, waiting while the client's socket is full. */
const sendTo = (body: PassThrough, frame: string) =>
  Effect.async<void>((resume) => {
    if (body.write(frame)) return resume(Effect.void)
    const drained = () => resume(Effect.void)
    body.once("drain", drained)
    return Effect.sync(() => body.off("drain", drained))
  })

/** The stream is never stored by a cache or a proxy's buffer (`X-Accel-Buffering` is nginx's switch). */
const STREAM_HEADERS = { "cache-control": "no-store", "x-accel-buffering": "no" }

export const EventStreamLive = compiledGroup(AccountsApi, "eventStream", (handlers) =>
  Effect.gen(function*() {
    const streams = yield* EventStreams
    const check = yield* CallerCheck
    const runFork = Runtime.runFork(yield* Effect.runtime<never>())
    return handlers.handle("stream", ({ headers, request, urlParams }) =>
      Effect.gen(function*() {
        const caller = yield* CurrentStreamCaller
        const lastEventId = headers["last-event-id"]
        const from = lastEventId === undefined || lastEventId === ""
          ? undefined
          : yield* parsePosition(lastEventId)
        const opened = yield* streams.open({
          receiver: receiverOf(caller),
          types: urlParams.types === undefined ? undefined : [...new Set(urlParams.types)],
          from,
          recheck: Effect.map(check.stillGood(caller), (code) =>
            code === undefined ? Option.none() : Option.some({ reason: "credentials_revoked" as const, code }))
        })
        const body = new PassThrough()
        const fiber = yield* opened.start((frame) => sendTo(body, frame))
        fiber.addObserver(() => body.end())
        // A client that goes away ends the stream; its places are given back even if it had not started.
        NodeHttpServerRequest.toServerResponse(request).once("close", () => {
          fiber.unsafeInterruptAsFork(FiberId.none)
          runFork(opened.release)
        })
        return HttpServerResponse.raw(body, {
          contentType: "text/event-stream; charset=utf-8",
          headers: STREAM_HEADERS
        })
      }))
  })).pipe(Layer.provide([EventStreams.Default, CallerCheck.Default, StreamCallerAuthLive]))
