import type { SqlClient } from "@effect/sql"
import { sha256Hex } from "@platform/crypto"
import { Effect } from "effect"
import type { ProviderName } from "./ProviderAnswer.ts"

/** Where round trips to a provider are kept: a flow's, or a signed-in account's link (identities/). */
export type RoundTripTable = "provider_round_trips" | "identity_links"

/**
 * Keeps a form_post answer on the live, unanswered trip its state names, once: false when the state
 * names none or the trip holds an answer already.
 */
export const holdFormPost = (
  sql: SqlClient.SqlClient,
  table: RoundTripTable,
  provider: ProviderName,
  state: string,
  form: Readonly<Record<string, string>>,
  at: Date
): Effect.Effect<boolean> =>
  sql`
    UPDATE ${sql(table)} SET form_post = ${JSON.stringify(form)}::jsonb
    WHERE state_hash = ${sha256Hex(state)} AND provider = ${provider} AND answered_at IS NULL
      AND form_post IS NULL AND expires_at > ${at}
    RETURNING 1
  `.pipe(Effect.orDie, Effect.map((rows) => rows.length > 0))

/**
 * The live, unanswered trip this state names, taken for its one answer (its `columns`): a second
 * callback with the same state, an unknown or an expired one finds nothing; so does a trip of a
 * provider answering by form_post (`held`) before its answer is held.
 */
export const takeForAnswer = (
  sql: SqlClient.SqlClient,
  table: RoundTripTable,
  columns: string,
  provider: ProviderName,
  state: string,
  at: Date,
  held: boolean
): Effect.Effect<ReadonlyArray<unknown>> =>
  sql`
    UPDATE ${sql(table)} SET answered_at = ${at}
    WHERE state_hash = ${sha256Hex(state)} AND provider = ${provider} AND answered_at IS NULL AND expires_at > ${at}
      AND (${!held} OR form_post IS NOT NULL)
    RETURNING ${sql.literal(columns)}
  `.pipe(Effect.orDie)
