import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** Most live public keys one Silicon may hold (spec 1, Sizes and counts). */
export const LIVE_KEYS_PER_SILICON = 10

/**
 * Silicons, their custody and their credentials.
 *
 * - `silicons`: what a Silicon has beyond its `accounts` row. `stk_hash` is
 *   scrypt; `webhook_secret` is kept (encrypted when a key encryption key is
 *   set) because it signs deliveries; `ended_by` says why a deleted Silicon
 *   ended (declined, expired or deleted), which its sign-in answers name.
 * - `custodian_requests`: initial requests (a self-created Silicon waiting for
 *   its custodian) and transfers; at most one pending per Silicon. `to_email`
 *   holds a custodian named by an email with no account yet; the request is
 *   bound to whichever Carbon verifies that email.
 * - `silicon_keys`: Ed25519 public keys for signed assertions; one live key
 *   per thumbprint per Silicon.
 * - `silicon_assertion_jtis`: every accepted assertion's jti until it
 *   expires, so a replay is refused by whichever process it reaches.
 * - `silicon_login_streaks`: wrong STKs in a row, per Silicon (and per unknown
 *   id, so an unknown id locks exactly like a known one).
 */
export const SiliconsMigration = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE silicons (
      account_uuid text PRIMARY KEY REFERENCES accounts (uuid),
      custodian_uuid text REFERENCES accounts (uuid),
      stk_hash text NOT NULL,
      stk_rotated_at timestamptz NOT NULL,
      webhook_url text,
      webhook_secret text,
      identity_audiences jsonb NOT NULL DEFAULT '[]',
      ended_by text CHECK (ended_by IN ('declined', 'expired', 'deleted')),
      CONSTRAINT silicons_webhook_has_secret CHECK ((webhook_url IS NULL) = (webhook_secret IS NULL))
    )
  `
  yield* sql`CREATE INDEX silicons_by_custodian ON silicons (custodian_uuid)`
  yield* sql`
    CREATE TABLE custodian_requests (
      id text PRIMARY KEY,
      kind text NOT NULL CHECK (kind IN ('initial', 'transfer')),
      status text NOT NULL CHECK (status IN ('pending', 'accepted', 'declined', 'expired', 'cancelled')),
      silicon_uuid text NOT NULL REFERENCES accounts (uuid),
      from_uuid text REFERENCES accounts (uuid),
      to_uuid text REFERENCES accounts (uuid),
      to_email text,
      request_token_hash text UNIQUE,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      decided_at timestamptz,
      CONSTRAINT custodian_requests_names_someone CHECK (to_uuid IS NOT NULL OR to_email IS NOT NULL),
      CONSTRAINT custodian_requests_decided CHECK ((status = 'pending') = (decided_at IS NULL))
    )
  `
  yield* sql`
    CREATE UNIQUE INDEX custodian_requests_one_pending ON custodian_requests (silicon_uuid) WHERE status = 'pending'
  `
  yield* sql`CREATE INDEX custodian_requests_to_uuid ON custodian_requests (to_uuid, created_at DESC)`
  yield* sql`CREATE INDEX custodian_requests_to_email ON custodian_requests (to_email) WHERE to_uuid IS NULL`
  yield* sql`CREATE INDEX custodian_requests_pending_expiry ON custodian_requests (expires_at) WHERE status = 'pending'`
  yield* sql`
    CREATE TABLE silicon_keys (
      id text PRIMARY KEY,
      silicon_uuid text NOT NULL REFERENCES accounts (uuid),
      name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 100),
      public_jwk jsonb NOT NULL,
      created_at timestamptz NOT NULL,
      revoked_at timestamptz
    )
  `
  yield* sql`CREATE INDEX silicon_keys_live ON silicon_keys (silicon_uuid) WHERE revoked_at IS NULL`
  yield* sql`
    CREATE TABLE silicon_assertion_jtis (
      silicon_uuid text NOT NULL REFERENCES accounts (uuid),
      jti text NOT NULL,
      expires_at timestamptz NOT NULL,
      PRIMARY KEY (silicon_uuid, jti)
    )
  `
  yield* sql`CREATE INDEX silicon_assertion_jtis_expiry ON silicon_assertion_jtis (expires_at)`
  yield* sql`
    CREATE TABLE silicon_login_streaks (
      subject text PRIMARY KEY,
      wrong_stks integer NOT NULL CHECK (wrong_stks >= 0),
      locked_until timestamptz,
      last_attempt_at timestamptz NOT NULL
    )
  `
})
