import { SqlClient } from "@effect/sql"
import { changeTriggers } from "@platform/database"
import { Effect } from "effect"
import { PROOF_VIEW_CHANNEL } from "./proofViewChannel.ts"

/**
 * Every table a proof token's verification reads (`verifiedProofOf`) announces its changes, for the
 * cache on its channel. A refresh's touch of its sign-in's `last_used_at` is not read there: not a change.
 */
export const ProofViewChangesMigration = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  changeTriggers(sql, PROOF_VIEW_CHANNEL, [
    "proof_tokens",
    "proofs",
    "apps",
    "accounts",
    "memberships",
    { table: "signins", ignoring: ["last_used_at"] }
  ]))
