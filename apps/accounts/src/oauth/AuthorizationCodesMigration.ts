import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Authorization codes (`sac_`, 120 seconds, single use), stored as SHA-256
 * digests with everything the token endpoint must check on redemption.
 * `signin_id` is the app sign-in the redemption started: a second use of the
 * code revokes it (and every token rotated from it).
 */
export const AuthorizationCodesMigration = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE authorization_codes (
      code_hash text PRIMARY KEY,
      app_id text NOT NULL REFERENCES apps (app_id),
      account_uuid text NOT NULL REFERENCES accounts (uuid),
      redirect_uri text NOT NULL,
      code_challenge text,
      code_challenge_method text CHECK (code_challenge_method IN ('S256', 'plain')),
      scope text NOT NULL,
      nonce text,
      auth_time timestamptz NOT NULL,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      used_at timestamptz,
      signin_id text REFERENCES signins (id)
    )
  `
  yield* sql`CREATE INDEX authorization_codes_expiry ON authorization_codes (expires_at)`
})
