import { Duration } from "effect"
import type { FeedEvent } from "./EventFeedReader.ts"
import { type FeedPosition, formatPosition } from "./StreamCursor.ts"

/** Why the server ended a stream, sent as the data of its last frame, `stream.closed`. */
export type ClosedReason =
  | { readonly reason: "max_duration" }
  /** The server is shutting down: reconnect at once (another server answers). */
  | { readonly reason: "server_shutdown" }
  /** A recheck found the credentials no longer good: `code` is the error a new request would get. */
  | { readonly reason: "credentials_revoked"; readonly code: string }

/**
 * The Server-Sent Events frames of the stream. Every frame that moves the reader carries its position as
 * `id:`, so a client's Last-Event-ID is always where it stands; the first frame gives the start position.
 */
export const openingFrame = (reconnectAfter: Duration.Duration, position: FeedPosition): string =>
  `retry: ${Duration.toMillis(reconnectAfter)}\nid: ${formatPosition(position)}\n\n`

export const eventFrame = (event: FeedEvent): string =>
  `id: ${formatPosition(event.position)}\nevent: ${event.type}\ndata: ${JSON.stringify(event.body)}\n\n`

export const HEARTBEAT_FRAME = ": heartbeat\n\n"

export const closedFrame = (position: FeedPosition, closed: ClosedReason): string =>
  `id: ${formatPosition(position)}\nevent: stream.closed\ndata: ${JSON.stringify(closed)}\n\n`
