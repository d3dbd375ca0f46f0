import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { AccountsConfig } from "../config.ts"

/**
 * What writes account events inside a caller's transaction: the caller's SQL client, and the public
 * origin the account views in event data name (an account without a photo has its default picture there).
 */
export interface EventWriter {
  readonly sql: SqlClient.SqlClient
  readonly publicUrl: string
}

/** The event writer of a service, made once in its constructor. */
export const eventWriter: Effect.Effect<EventWriter, never, SqlClient.SqlClient | AccountsConfig> = Effect.map(
  Effect.all([SqlClient.SqlClient, AccountsConfig]),
  ([sql, config]) => ({ sql, publicUrl: config.publicUrl })
)
