import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Hosted sign-in flows and the sign-up sessions they start.
 *
 * - `flows`: one row per flow; `cookie_hash` is the SHA-256 of the `saf_` cookie
 *   value that binds the flow to one browser; `state` holds the whole flow
 *   (the checked authorize request, the step, the account, the pages);
 *   `version` makes each move a compare-and-set, so two moves racing on one
 *   flow cannot both apply.
 * - `signup_sessions`: an address proven by a code that no account holds yet,
 *   bound to the browser by the `sa_signup` cookie (SHA-256 in `cookie_hash`)
 *   for 48 hours; `completed_at` once its account exists.
 */
export const FlowsMigration = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE flows (
      id text PRIMARY KEY,
      cookie_hash text NOT NULL,
      app_id text NOT NULL REFERENCES apps (app_id),
      step text NOT NULL,
      state jsonb NOT NULL,
      version integer NOT NULL,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )
  `
  yield* sql`CREATE INDEX flows_expiry ON flows (expires_at)`
  yield* sql`
    CREATE TABLE signup_sessions (
      id text PRIMARY KEY,
      cookie_hash text NOT NULL UNIQUE,
      flow_id text NOT NULL,
      channel text NOT NULL CHECK (channel IN ('email', 'phone')),
      address text NOT NULL,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      completed_at timestamptz,
      account_uuid text REFERENCES accounts (uuid)
    )
  `
  yield* sql`CREATE INDEX signup_sessions_expiry ON signup_sessions (expires_at)`
})
