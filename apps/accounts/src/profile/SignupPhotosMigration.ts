import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"

/**
 * A photo uploaded during hosted sign-up, before the account exists: an `account_photos` row held
 * by its sign-up session (`signup_id`) instead of an account, which the account adopts when the
 * sign-up makes it. A row belongs to exactly one of the two; a sign-up session swept away takes its
 * unadopted photo with it.
 */
export const SignupPhotosMigration: Effect.Effect<void, SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE account_photos ALTER COLUMN account_uuid DROP NOT NULL`
  yield* sql`ALTER TABLE account_photos ADD COLUMN signup_id text UNIQUE REFERENCES signup_sessions (id) ON DELETE CASCADE`
  yield* sql`
    ALTER TABLE account_photos ADD CONSTRAINT account_photos_one_holder
      CHECK ((account_uuid IS NULL) <> (signup_id IS NULL))
  `
})
