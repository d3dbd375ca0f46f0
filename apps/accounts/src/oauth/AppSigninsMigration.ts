import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * What an app sign-in was granted: its scopes and when the account
 * authenticated (for id tokens issued on refresh). And when a second use of
 * an authorization code was first seen.
 */
export const AppSigninsMigration = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE app_signins (
      signin_id text PRIMARY KEY REFERENCES signins (id) ON DELETE CASCADE,
      app_id text NOT NULL REFERENCES apps (app_id),
      scope text NOT NULL,
      auth_time timestamptz NOT NULL
    )
  `
  yield* sql`ALTER TABLE authorization_codes ADD COLUMN reused_at timestamptz`
})
