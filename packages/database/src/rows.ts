import { Effect, Schema } from "effect"

/**
 * A decoder for the rows of a query, built once per schema: building `Schema.Array(schema)` and its
 * parser on every call costs more than the decoding. Rows that do not match are a broken database
 * contract, hence a defect rather than a typed error.
 */
export const rowsDecoder = <A, I>(schema: Schema.Schema<A, I>): (rows: unknown) => Effect.Effect<ReadonlyArray<A>> => {
  const decode = Schema.decodeUnknown(Schema.Array(schema))
  return (rows) => Effect.orDie(decode(rows))
}

/**
 * The column list of a row schema's fields (optionally qualified by a table alias), for SELECT and
 * RETURNING in place of `*`: a statement kept prepared (see pgPool.ts) must not change the
 * columns it returns when a migration adds one.
 */
export const columnsOf = (fields: Readonly<Record<string, unknown>>, alias?: string): string =>
  Object.keys(fields).map((name) => (alias === undefined ? name : `${alias}.${name}`)).join(", ")
