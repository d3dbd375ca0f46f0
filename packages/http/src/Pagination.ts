import { Effect, Either, Option, Schema } from "effect"
import { ApiError } from "./ApiError.ts"

/** Spec conventions: page size 1 to 200, default 50; the cursor is opaque and passed back unchanged. */
export const DEFAULT_PAGE_SIZE = 50
export const MAX_PAGE_SIZE = 200

export class InvalidCursor extends ApiError<InvalidCursor>()("InvalidCursor", {
  code: "invalid_cursor",
  status: 400
}) {}

/** The `limit` and `cursor` query parameters of every list route. */
export const PageQueryFields = {
  limit: Schema.optional(
    Schema.NumberFromString.pipe(Schema.int(), Schema.between(1, MAX_PAGE_SIZE)).annotations({
      description: `Page size, 1 to ${MAX_PAGE_SIZE}; default ${DEFAULT_PAGE_SIZE}`
    })
  ),
  cursor: Schema.optional(
    Schema.String.pipe(Schema.maxLength(500)).annotations({ description: "next_cursor of the previous page, unchanged" })
  )
}

/** A page of `item`: `{items, next_cursor}` (null on the last page). */
export const Page = <A, I, R>(item: Schema.Schema<A, I, R>, identifier: string) =>
  Schema.Struct({
    items: Schema.Array(item),
    next_cursor: Schema.NullOr(Schema.String).annotations({ description: "Pass back as cursor for the next page" })
  }).annotations({ identifier })

/** A keyset position as an opaque cursor (base64url of its JSON). */
export const encodeCursor = (position: unknown): string => Buffer.from(JSON.stringify(position)).toString("base64url")

/** Reads a cursor made by `encodeCursor` with `schema`; anything else is 400 invalid_cursor. */
export const decodeCursor = <A, I>(
  schema: Schema.Schema<A, I>,
  cursor: string
): Effect.Effect<A, InvalidCursor> => {
  let json: unknown
  try {
    json = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"))
  } catch {
    json = undefined
  }
  return Either.match(Schema.decodeUnknownEither(schema)(json), {
    onLeft: () =>
      Effect.fail(new InvalidCursor({ message: "The cursor is not one this list gave; pass next_cursor back unchanged." })),
    onRight: Effect.succeed
  })
}

/** The usual keyset position of a list, as its cursor carries it: a row's time in milliseconds, then its id (the tie-breaker). */
export const TimeAndId = Schema.Tuple(Schema.Number, Schema.String)

/** The decoded `limit` and `cursor` of a list request (`PageQueryFields`). */
export interface PageQuery {
  readonly limit?: number | undefined
  readonly cursor?: string | undefined
}

/** What a list request asks for: its page size (default 50) and, when it sent a cursor, the position to start after. */
export const pageRequest = <A, I>(
  schema: Schema.Schema<A, I>,
  query: PageQuery
): Effect.Effect<{ readonly limit: number; readonly after: Option.Option<A> }, InvalidCursor> =>
  Effect.map(
    query.cursor === undefined ? Effect.succeedNone : Effect.asSome(decodeCursor(schema, query.cursor)),
    (after) => ({ limit: query.limit ?? DEFAULT_PAGE_SIZE, after })
  )

/**
 * Splits rows fetched with `limit + 1` into the page and the cursor of the
 * next one (made from the page's last row), null when nothing follows.
 */
export const pageOf = <Row, Position>(
  rows: ReadonlyArray<Row>,
  limit: number,
  positionOf: (row: Row) => Position
): { readonly items: ReadonlyArray<Row>; readonly nextCursor: string | null } => {
  if (rows.length <= limit) return { items: rows, nextCursor: null }
  const items = rows.slice(0, limit)
  return { items, nextCursor: encodeCursor(positionOf(items[items.length - 1]!)) }
}
