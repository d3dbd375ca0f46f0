import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Proofs, their tokens (sap_) and refresh tokens (sapr_), stored as SHA-256 digests, and the account
 * verification requests authors file. A proof's end by cascade (its sign-in, access, account or
 * membership ending) is read when the proof is next used or listed, and written then (see decisions.md).
 */
export const ProofsMigration = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE proofs (
      id text PRIMARY KEY,
      kind text NOT NULL CHECK (kind IN ('user_verification', 'app_verification')),
      issuing_app text NOT NULL REFERENCES apps (app_id),
      receiving_app text NOT NULL REFERENCES apps (app_id),
      account_uuid text REFERENCES accounts (uuid),
      signin_id text,
      scopes jsonb NOT NULL,
      access_ttl_seconds integer NOT NULL,
      created_at timestamptz NOT NULL,
      token_expires_at timestamptz NOT NULL,
      refresh_expires_at timestamptz NOT NULL,
      last_refreshed_at timestamptz,
      revoked_at timestamptz,
      revoke_reason text,
      CHECK ((kind = 'user_verification') = (account_uuid IS NOT NULL AND signin_id IS NOT NULL))
    )
  `
  yield* sql`CREATE INDEX proofs_by_issuing_app ON proofs (issuing_app, created_at DESC, id DESC)`
  yield* sql`CREATE INDEX proofs_by_account ON proofs (account_uuid, created_at DESC, id DESC) WHERE account_uuid IS NOT NULL`
  // One live App verification proof per issuing and receiving app.
  yield* sql`
    CREATE UNIQUE INDEX proofs_one_app_verification ON proofs (issuing_app, receiving_app)
    WHERE kind = 'app_verification' AND revoked_at IS NULL
  `
  yield* sql`
    CREATE TABLE proof_tokens (
      token_hash text PRIMARY KEY,
      proof_id text NOT NULL REFERENCES proofs (id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL
    )
  `
  yield* sql`CREATE INDEX proof_tokens_by_proof ON proof_tokens (proof_id)`
  yield* sql`CREATE INDEX proof_tokens_by_expiry ON proof_tokens (expires_at)`
  yield* sql`
    CREATE TABLE proof_refresh_tokens (
      token_hash text PRIMARY KEY,
      proof_id text NOT NULL REFERENCES proofs (id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL,
      used_at timestamptz
    )
  `
  yield* sql`CREATE INDEX proof_refresh_tokens_by_proof ON proof_refresh_tokens (proof_id)`
  yield* sql`
    CREATE TABLE account_verification_requests (
      id text PRIMARY KEY,
      account_uuid text NOT NULL REFERENCES accounts (uuid),
      context_app text NOT NULL REFERENCES apps (app_id),
      reason text NOT NULL,
      status text NOT NULL CHECK (status IN ('pending', 'approved', 'rejected')),
      submitted_at timestamptz NOT NULL,
      response_expected_by timestamptz NOT NULL,
      reviewed_at timestamptz
    )
  `
  yield* sql`CREATE INDEX account_verification_requests_by_account ON account_verification_requests (account_uuid, submitted_at DESC)`
  yield* sql`
    CREATE UNIQUE INDEX account_verification_requests_one_pending ON account_verification_requests (account_uuid)
    WHERE status = 'pending'
  `
})
