import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * External identity providers (idp_a, idp_b) in the hosted flow.
 *
 * - `linked_identities`: an identity at a provider (`provider`, its `subject`)
 *   signs in exactly one account; the pair is the key, so one identity can never
 *   be linked twice.
 * - `provider_round_trips`: one trip to a provider started from a flow. `state`
 *   is random and kept only as its SHA-256; `nonce` and the PKCE `code_verifier`
 *   are used once at the callback; `client_id` is the client the trip started
 *   with (a changed config is told apart at the callback). `answered_at` makes
 *   the callback single-use; `answer` is the verified identity or the failure
 *   code; `claimed_at` once the flow took it. Rows go with their flow.
 * - `signup_sessions` gains what a provider sign-up carries: the identity to
 *   link, the provider's photo and name suggestion.
 */
export const ProvidersMigration = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE linked_identities (
      provider text NOT NULL,
      subject text NOT NULL,
      account_uuid text NOT NULL REFERENCES accounts (uuid),
      email text,
      created_at timestamptz NOT NULL,
      last_used_at timestamptz NOT NULL,
      PRIMARY KEY (provider, subject)
    )
  `
  yield* sql`CREATE INDEX linked_identities_account ON linked_identities (account_uuid)`
  yield* sql`
    CREATE TABLE provider_round_trips (
      state_hash text PRIMARY KEY,
      flow_id text NOT NULL REFERENCES flows (id) ON DELETE CASCADE,
      provider text NOT NULL,
      client_id text NOT NULL,
      nonce text NOT NULL,
      code_verifier text NOT NULL,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      answered_at timestamptz,
      answer jsonb,
      claimed_at timestamptz
    )
  `
  yield* sql`CREATE INDEX provider_round_trips_flow ON provider_round_trips (flow_id)`
  yield* sql`
    ALTER TABLE signup_sessions
      ADD COLUMN provider text,
      ADD COLUMN provider_subject text,
      ADD COLUMN provider_pfp_url text,
      ADD COLUMN provider_display_name text
  `
})

/**
 * idp_b answers by form_post: a cross-site POST that carries no cookie of ours. `form_post` holds
 * that answer (code, state, error, user), kept from the POST until the same-site GET that takes the
 * trip with the flow cookie; it is blanked with the nonce and verifier once the trip is answered.
 */
export const ProvidersFormPostMigration = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE provider_round_trips ADD COLUMN form_post jsonb`
})
