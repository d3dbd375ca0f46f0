import { SqlClient } from "@effect/sql"
import { changeTriggers } from "@platform/database"
import { Effect } from "effect"
import { SIGNIN_VIEW_CHANNEL } from "./signinViewChannel.ts"

/** Every table the app sign-in view reads (`appSigninViewOf`) announces its changes, for the view cache. */
export const SigninViewChangesMigration = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  changeTriggers(sql, SIGNIN_VIEW_CHANNEL, [
    "signins",
    "app_signins",
    "accounts",
    "account_emails",
    "account_phones",
    "silicons",
    "memberships",
    "apps"
  ]))
