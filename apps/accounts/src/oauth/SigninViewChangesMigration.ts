import { SqlClient } from "@effect/sql"
import { changeTriggers } from "@platform/database"
import { Effect } from "effect"
import { SIGNIN_VIEW_CHANNEL } from "./signinViewChannel.ts"

/**
 * Every table the app sign-in view reads (`appSigninViewOf`) announces its changes, for the caches on
 * its channel. A refresh only touches its sign-in's `last_used_at`, which no cache keeps: not a change.
 */
export const SigninViewChangesMigration = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  changeTriggers(sql, SIGNIN_VIEW_CHANNEL, [
    { table: "signins", ignoring: ["last_used_at"] },
    "app_signins",
    "accounts",
    "account_emails",
    "account_phones",
    "silicons",
    "memberships",
    "apps"
  ]))
