import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"

/**
 * Linking external identities from account management (`/v1/me/identities`).
 *
 * - `linked_identities` gains `id` (`idn_` + 128 random bits), the handle a person unlinks by; rows of
 *   earlier sign-ups get one each.
 * - `identity_links`: one round trip to a provider started by a signed-in browser session to link an
 *   identity. Like a flow's round trip, `state` is kept only as its SHA-256, `nonce` and
 *   `code_verifier` are used once at the callback and blanked, `form_post` holds a form_post answer
 *   until the same-site GET. `signin_id` is the browser session that started it: the answer counts
 *   only in that session. The outcome (`status`, the error value or the identity linked) is kept for
 *   `GET /v1/me/identities/links/{id}`; rows go 1 day after they expire (retention.ts).
 */
export const IdentityLinksMigration: Effect.Effect<void, SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    ALTER TABLE linked_identities
      ADD COLUMN id text NOT NULL DEFAULT ('idn_' || replace(gen_random_uuid()::text, '-', ''))
  `
  yield* sql`CREATE UNIQUE INDEX linked_identities_id ON linked_identities (id)`
  yield* sql`
    CREATE TABLE identity_links (
      id text PRIMARY KEY,
      state_hash text NOT NULL UNIQUE,
      account_uuid text NOT NULL REFERENCES accounts (uuid),
      signin_id text NOT NULL,
      provider text NOT NULL,
      client_id text NOT NULL,
      nonce text NOT NULL,
      code_verifier text NOT NULL,
      form_post jsonb,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      answered_at timestamptz,
      status text NOT NULL CHECK (status IN ('pending', 'linked', 'failed')),
      error_code text,
      error_message text,
      identity_id text
    )
  `
  yield* sql`CREATE INDEX identity_links_expiry ON identity_links (expires_at)`
})
