import { SqlClient } from "@effect/sql"
import { changeTriggers } from "@platform/database"
import { Effect } from "effect"
import { PROOF_VIEW_CHANNEL } from "./proofViewChannel.ts"

/**
 * Every table a proof token's verification reads (`verifiedProofOf`) announces its changes, for the
 * cache on its channel. A refresh's touch of its sign-in's `last_used_at`, and a sign-in's of its
 * membership's `last_signin_at`, are not read there: not a change; nor is a new sign-in (a proof names
 * a sign-in that existed before it).
 */
export const ProofViewChangesMigration = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  changeTriggers(sql, PROOF_VIEW_CHANNEL, [
    "proof_tokens",
    "proofs",
    "apps",
    "accounts",
    { table: "memberships", ignoring: ["last_signin_at"] },
    { table: "signins", ignoring: ["last_used_at"], inserts: false }
  ]))
