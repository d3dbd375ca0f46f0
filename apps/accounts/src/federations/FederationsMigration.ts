import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Trusts of a Silicon in outside issuers: a token of `issuer` for `audience` whose claims meet
 * every condition signs the Silicon in. A removed trust keeps its row (revoked_at) as history.
 */
export const FederationsMigration = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE silicon_federations (
      id text PRIMARY KEY,
      silicon_uuid text NOT NULL REFERENCES accounts (uuid),
      name text NOT NULL,
      issuer text NOT NULL,
      audience text NOT NULL,
      conditions jsonb NOT NULL,
      created_at timestamptz NOT NULL,
      revoked_at timestamptz
    )
  `
  yield* sql`CREATE INDEX silicon_federations_live_by_silicon ON silicon_federations (silicon_uuid) WHERE revoked_at IS NULL`
  yield* sql`CREATE INDEX silicon_federations_live_by_issuer ON silicon_federations (issuer) WHERE revoked_at IS NULL`
})
