import { SqlClient } from "@effect/sql"
import { changeTriggers } from "@platform/database"
import { Effect } from "effect"
import { SIGNIN_VIEW_CHANNEL } from "./signinViewChannel.ts"

/**
 * Every table the app sign-in view reads (`appSigninViewOf`) announces its changes, for the caches on
 * its channel. A refresh only touches its sign-in's `last_used_at`, and a sign-in its membership's
 * `last_signin_at`, which no cache keeps: not a change. A new sign-in is not one either: the caches
 * keyed by sign-in never keep an absent one (a sign-in's id is unknown to all until it exists).
 */
export const SigninViewChangesMigration = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  changeTriggers(sql, SIGNIN_VIEW_CHANNEL, [
    { table: "signins", ignoring: ["last_used_at"], inserts: false },
    { table: "app_signins", inserts: false },
    "accounts",
    "account_emails",
    "account_phones",
    "silicons",
    { table: "memberships", ignoring: ["last_signin_at"] },
    "apps"
  ]))
