import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"

/**
 * Id changes, photos and deleted Carbons.
 *
 * - `account_id_changes`: every change of an account's id, kept permanently (spec 1, Retention: history);
 *   the rolling 24-hour limit counts these rows, and GET /v1/me/history reads them. Ids with their prefix.
 * - `account_photos`: the current uploaded photo of an account, re-encoded without metadata; served
 *   at `/v1/photos/{id}` by every process. A new upload replaces the row, so each URL names one image forever.
 * - A deleted Carbon gives up its handle (kept from others by a reservation for 10 days), so the
 *   check that a Carbon always holds one now holds for Carbons that are not deleted.
 */
export const ProfileMigration: Effect.Effect<void, SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE account_id_changes (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      account_uuid text NOT NULL REFERENCES accounts (uuid),
      old_id text NOT NULL,
      new_id text NOT NULL,
      changed_at timestamptz NOT NULL
    )
  `
  yield* sql`CREATE INDEX account_id_changes_by_account ON account_id_changes (account_uuid, changed_at DESC)`
  yield* sql`
    CREATE TABLE account_photos (
      id text PRIMARY KEY,
      account_uuid text NOT NULL UNIQUE REFERENCES accounts (uuid),
      content_type text NOT NULL CHECK (content_type IN ('image/png', 'image/jpeg', 'image/webp', 'image/gif')),
      bytes bytea NOT NULL,
      width integer NOT NULL CHECK (width > 0),
      height integer NOT NULL CHECK (height > 0),
      created_at timestamptz NOT NULL
    )
  `
  yield* sql`ALTER TABLE accounts DROP CONSTRAINT accounts_carbon_has_handle`
  yield* sql`
    ALTER TABLE accounts ADD CONSTRAINT accounts_carbon_has_handle
      CHECK (kind <> 'carbon' OR handle IS NOT NULL OR status = 'deleted')
  `
})
