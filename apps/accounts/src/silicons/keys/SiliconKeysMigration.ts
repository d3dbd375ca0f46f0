import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * A key id (its thumbprint) is unique per Silicon, not across Silicons: two
 * Silicons may register one public key without either learning of the other,
 * and a revoked key keeps its row, which a new registration of it revives.
 */
export const SiliconKeysMigration = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE silicon_keys DROP CONSTRAINT silicon_keys_pkey`
  yield* sql`ALTER TABLE silicon_keys ADD PRIMARY KEY (silicon_uuid, id)`
})
