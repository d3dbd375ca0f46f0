import { Effect, Option } from "effect"
import { InvalidCursor } from "@platform/http"

/**
 * A reader's position in `event_feed` (or `account_events`, for the identity changes feed): the
 * transaction id and sequence of the last row it was sent. On the wire (the SSE `id:` and
 * `Last-Event-ID`, the changes feed's `cursor`) it is `<txid>.<seq>` in decimal; clients treat it as opaque.
 */
export interface FeedPosition {
  readonly txid: bigint
  readonly seq: bigint
}

const WIRE = /^(0|[1-9][0-9]{0,19})\.(0|[1-9][0-9]{0,18})$/
// txid is an xid8 (unsigned 64 bits), seq a bigserial (signed 64 bits).
const MAX_TXID = (1n << 64n) - 1n
const MAX_SEQ = (1n << 63n) - 1n

export const formatPosition = (position: FeedPosition): string => `${position.txid}.${position.seq}`

/** A position in its wire form; none for text that is not one. */
export const readPosition = (value: string): Option.Option<FeedPosition> => {
  const match = WIRE.exec(value)
  const position = match === null ? undefined : { txid: BigInt(match[1]!), seq: BigInt(match[2]!) }
  return position !== undefined && position.txid <= MAX_TXID && position.seq <= MAX_SEQ
    ? Option.some(position)
    : Option.none()
}

/** Reads a `Last-Event-ID`; anything this stream did not send is 400 invalid_cursor. */
export const parsePosition = (value: string): Effect.Effect<FeedPosition, InvalidCursor> =>
  Option.match(readPosition(value), {
    onNone: () =>
      Effect.fail(
        new InvalidCursor({
          message: "Last-Event-ID is not an id this stream sent; send the id of the last event received, unchanged, or none."
        })
      ),
    onSome: Effect.succeed
  })
