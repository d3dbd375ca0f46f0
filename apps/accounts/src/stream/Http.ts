import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { NodeHttpServerRequest } from "@effect/platform-node"
import { Effect, Layer, Option, Runtime, Stream } from "effect"
import { AccountsApi } from "../api.ts"
import { CallerCheck } from "./CallerCheck.ts"
import { EventStreams } from "./EventStreams.ts"
import { CurrentStreamCaller, receiverOf, StreamCallerAuthLive } from "./StreamCaller.ts"
import { parsePosition } from "./StreamCursor.ts"

const encoder = new TextEncoder()

/** The stream is never stored by a cache or a proxy's buffer (`X-Accel-Buffering` is nginx's switch). */
const STREAM_HEADERS = { "cache-control": "no-store", "x-accel-buffering": "no" }

export const EventStreamLive = HttpApiBuilder.group(AccountsApi, "eventStream", (handlers) =>
  Effect.gen(function*() {
    const streams = yield* EventStreams
    const check = yield* CallerCheck
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
        // The stream's end gives its places back; so does the connection's, should it close before the stream starts.
        const runFork = Runtime.runFork(yield* Effect.runtime<never>())
        NodeHttpServerRequest.toServerResponse(request).once("close", () => runFork(opened.release))
        return HttpServerResponse.stream(Stream.map(opened.frames, (frame) => encoder.encode(frame)), {
          contentType: "text/event-stream; charset=utf-8",
          headers: STREAM_HEADERS
        })
      }))
  })).pipe(Layer.provide([EventStreams.Default, CallerCheck.Default, StreamCallerAuthLive]))
