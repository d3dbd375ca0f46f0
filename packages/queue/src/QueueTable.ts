import { type Schema, SchemaAST } from "effect"

/**
 * Where a queue keeps its jobs: one row per job in `table`, with the state columns the queue
 * works with (`id` uuid, `status`, `attempts`, `next_attempt_at`, `claimed_until`,
 * `claim_token` uuid, `created_at`, the `doneAtColumn` and `last_error`) and one column per
 * field of the payload. A job is `pending` until it is done (`doneStatus`) or given up (`failed`).
 */
export interface QueueTableDefinition<A, I extends Readonly<Record<string, unknown>>> {
  readonly table: string
  /** The job's data: a struct whose encoded fields are the payload columns. */
  readonly payload: Schema.Schema<A, I>
  /** The status of a finished job, e.g. `sent` or `delivered`. */
  readonly doneStatus: string
  /** The column that records when the job was done, e.g. `sent_at`. */
  readonly doneAtColumn: string
  /**
   * Payload columns set to NULL once the job is done or given up: what must not outlive its
   * delivery (a message's text and code). They must be nullable.
   */
  readonly eraseWhenFinished: ReadonlyArray<Extract<keyof I, string>>
}

export interface QueueTable<A, I extends Readonly<Record<string, unknown>>> extends QueueTableDefinition<A, I> {
  /** The payload's column names, read from its schema. */
  readonly payloadColumns: ReadonlyArray<string>
}

export const PENDING = "pending"
export const GAVE_UP = "failed"

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/

const STATE_COLUMNS = ["id", "status", "attempts", "next_attempt_at", "claimed_until", "claim_token", "created_at", "last_error"]

/**
 * A queue's table, checked once where it is defined: its names and done status are written
 * into SQL text, so only plain lower-case identifiers are accepted. A wrong definition is a programming error
 * and throws.
 */
export const queueTable = <A, I extends Readonly<Record<string, unknown>>>(
  definition: QueueTableDefinition<A, I>
): QueueTable<A, I> => {
  const payloadColumns = SchemaAST.getPropertySignatures(SchemaAST.encodedAST(definition.payload.ast)).map((property) =>
    String(property.name)
  )
  if (payloadColumns.length === 0) throw new Error(`queueTable ${definition.table}: the payload must be a struct`)
  const names = [definition.table, definition.doneStatus, definition.doneAtColumn, ...payloadColumns]
  const wrong = names.find((name) => !IDENTIFIER.test(name))
  if (wrong !== undefined) {
    throw new Error(`queueTable ${definition.table}: ${JSON.stringify(wrong)} is not a plain lower-case SQL identifier`)
  }
  const taken = [definition.doneAtColumn, ...payloadColumns].find((name) => STATE_COLUMNS.includes(name))
  if (taken !== undefined) throw new Error(`queueTable ${definition.table}: ${taken} is a state column of the queue`)
  if (definition.doneStatus === PENDING || definition.doneStatus === GAVE_UP) {
    throw new Error(`queueTable ${definition.table}: the done status cannot be ${JSON.stringify(definition.doneStatus)}`)
  }
  return { ...definition, payloadColumns }
}
