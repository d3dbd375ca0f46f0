import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"

/**
 * Device authorization requests (RFC 8628). The device code is kept only as
 * its SHA-256 digest; the user code in its stored form (8 letters, upper
 * case) is unique across every row not yet swept, so a typed code names at
 * most one request. `account_uuid` is the Carbon who approved or denied;
 * `status` moves pending → approved → used, or pending → denied.
 */
export const DeviceCodesMigration: Effect.Effect<void, SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE device_codes (
      device_code_hash text PRIMARY KEY,
      user_code text NOT NULL UNIQUE CHECK (user_code ~ '^[A-Z]{8}$'),
      client_id text NOT NULL,
      client_label text,
      status text NOT NULL CHECK (status IN ('pending', 'approved', 'denied', 'used')),
      account_uuid text REFERENCES accounts (uuid) ON DELETE CASCADE,
      interval_seconds integer NOT NULL CHECK (interval_seconds > 0),
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      last_polled_at timestamptz,
      decided_at timestamptz,
      used_at timestamptz,
      CONSTRAINT device_codes_decided_by_account CHECK ((status = 'pending') = (account_uuid IS NULL))
    )
  `
  yield* sql`CREATE INDEX device_codes_expires_at_idx ON device_codes (expires_at)`
})
