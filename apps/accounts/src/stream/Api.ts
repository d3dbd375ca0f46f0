import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { errorResponse, InvalidCursor } from "@platform/http"
import { Schema } from "effect"
import { StreamCapacityReached, TooManyStreams } from "./errors.ts"
import { EVENT_TYPES } from "../events/AccountEvent.ts"
import { StreamTypes } from "./EventTypes.ts"
import { StreamCallerAuth } from "./StreamCaller.ts"

const EventStreamBody = Schema.String.pipe(HttpApiSchema.withEncoding({ kind: "Text", contentType: "text/event-stream" }))
  .annotations({
    identifier: "EventStream",
    description:
      "Server-Sent Events. The first frame is `retry: 5000` with `id:` the start position. Each event is a frame " +
      "`id: <position>`, `event: <type>`, `data: <envelope JSON>` (event_id, type, occurred_at, app_id, silicon, data). " +
      "`: heartbeat` after 15 seconds without a frame. The last frame is `event: stream.closed` with data " +
      "{\"reason\": \"max_duration\"} after an hour, {\"reason\": \"server_shutdown\"} (reconnect at once), or " +
      "{\"reason\": \"credentials_revoked\", \"code\": <the error a new request would get>}."
  })

const DESCRIPTION =
  "The caller's events as Server-Sent Events, in commit order: an app (Basic credentials) receives what its stream " +
  "subscription takes, an account (first-party bearer or the account site's cookie) what concerns it. Looks for new " +
  "events every second, at most 100 per read; rechecks the credentials every 30 seconds; ends after an hour. Send the " +
  "last id received as Last-Event-ID to resume with nothing lost or repeated; without it the stream starts now. " +
  `At most 5 streams open per app or account (429 too_many_streams) and 500 per server (503 stream_capacity_reached), both with Retry-After. Types: ${
    EVENT_TYPES.join(", ")
  }.`

export class EventStreamApi extends HttpApiGroup.make("eventStream")
  .add(
    HttpApiEndpoint.get("stream", "/v1/events/stream")
      .setUrlParams(Schema.Struct({ types: Schema.optional(StreamTypes) }))
      .setHeaders(Schema.Struct({
        "last-event-id": Schema.optional(
          Schema.String.annotations({ description: "The id of the last event received, unchanged (400 invalid_cursor otherwise)" })
        )
      }))
      .addSuccess(EventStreamBody)
      .addError(errorResponse(InvalidCursor))
      .addError(errorResponse(TooManyStreams))
      .addError(errorResponse(StreamCapacityReached))
      .annotate(OpenApi.Description, DESCRIPTION)
  )
  .middleware(StreamCallerAuth)
  .annotate(OpenApi.Title, "Event stream")
{}
