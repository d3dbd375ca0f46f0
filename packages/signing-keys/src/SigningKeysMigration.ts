import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"

/**
 * The `signing_keys` table. An active key has no `retired_at`; a retired key keeps only its
 * public part and stays in the JWKS until `published_until`. The partial unique index allows
 * at most one active key per algorithm, which is what makes concurrent first starts safe.
 */
export const SigningKeysMigration: Effect.Effect<void, SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE signing_keys (
      kid text PRIMARY KEY,
      alg text NOT NULL CHECK (alg IN ('EdDSA', 'RS256')),
      public_jwk jsonb NOT NULL,
      private_key text,
      created_at timestamptz NOT NULL,
      retired_at timestamptz,
      published_until timestamptz,
      CONSTRAINT signing_keys_lifecycle CHECK (
        (retired_at IS NULL AND published_until IS NULL AND private_key IS NOT NULL)
        OR (retired_at IS NOT NULL AND published_until IS NOT NULL AND private_key IS NULL)
      )
    )
  `
  yield* sql`CREATE UNIQUE INDEX signing_keys_one_active_per_alg ON signing_keys (alg) WHERE retired_at IS NULL`
})
