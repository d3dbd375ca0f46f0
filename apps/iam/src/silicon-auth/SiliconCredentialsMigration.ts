import { SqlClient } from "@effect/sql"
import { FailureStreaksMigration } from "@platform/rate-limit"
import { Effect } from "effect"
import { SILICON_TOKEN_STREAKS } from "./tokenStreaks.ts"

/**
 * The IAM Silicon tokens, one per Silicon, kept only as a keyed digest (HMAC-SHA256 under a key
 * derived from IAM_SECRET_KEY), and the wrong-token streaks that lock a Silicon's login.
 */
export const SiliconCredentialsMigration = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create table silicon_credentials (
      silicon_uuid text primary key references identities (uuid),
      token_digest text not null unique,
      created_at timestamptz not null,
      rotated_at timestamptz not null
    )
  `
  yield* FailureStreaksMigration(SILICON_TOKEN_STREAKS.table)
})
