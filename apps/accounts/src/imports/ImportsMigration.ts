import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"

/**
 * CSV imports of an app's users.
 *
 * - `import_jobs`: one row per import request, its progress counters updated after every batch
 *   (so a running import shows how far it is), its status and the file-level error that ended it.
 * - `import_row_errors`: one entry per refused row, by the line it ends on.
 * - `imported_accounts`: the Carbons an import created, with the app's own external id (unique per
 *   app) and extra columns; `claimed_at` is set when the person signs up with an imported address.
 */
export const ImportsMigration: Effect.Effect<void, SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE import_jobs (
      import_id text PRIMARY KEY,
      app_id text NOT NULL REFERENCES apps (app_id) ON DELETE CASCADE,
      started_by text,
      status text NOT NULL CHECK (status IN ('running', 'completed', 'failed')),
      rows_read integer NOT NULL DEFAULT 0,
      rows_imported integer NOT NULL DEFAULT 0,
      rows_failed integer NOT NULL DEFAULT 0,
      bytes_read bigint NOT NULL DEFAULT 0,
      error_code text,
      error_message text,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      finished_at timestamptz
    )
  `
  yield* sql`CREATE INDEX import_jobs_by_app ON import_jobs (app_id, created_at DESC, import_id DESC)`
  yield* sql`
    CREATE TABLE import_row_errors (
      import_id text NOT NULL REFERENCES import_jobs (import_id) ON DELETE CASCADE,
      line integer NOT NULL,
      row_number integer NOT NULL,
      column_name text,
      code text NOT NULL,
      message text NOT NULL,
      PRIMARY KEY (import_id, line)
    )
  `
  yield* sql`
    CREATE TABLE imported_accounts (
      account_uuid text PRIMARY KEY REFERENCES accounts (uuid),
      app_id text NOT NULL REFERENCES apps (app_id),
      import_id text NOT NULL REFERENCES import_jobs (import_id),
      external_id text,
      attributes jsonb NOT NULL DEFAULT '{}',
      line integer NOT NULL,
      created_at timestamptz NOT NULL,
      claimed_at timestamptz
    )
  `
  yield* sql`CREATE UNIQUE INDEX imported_accounts_external_id ON imported_accounts (app_id, external_id) WHERE external_id IS NOT NULL`
  yield* sql`CREATE INDEX imported_accounts_by_import ON imported_accounts (import_id, line)`
})
