import { ApiError } from "@platform/http"
import { Schema } from "effect"

/** No such app, or one the caller may not see (a draft or a private app answers the same as a missing one). */
export class AppNotFound extends ApiError<AppNotFound>()("AppNotFound", {
  code: "app_not_found",
  status: 404
}) {}

/** The caller can see the app but is not one of its authors. */
export class NotAnAuthor extends ApiError<NotAnAuthor>()("NotAnAuthor", {
  code: "not_an_author",
  status: 403
}) {}

/** Only the app's administrator may do this. */
export class NotAdministrator extends ApiError<NotAdministrator>()("NotAdministrator", {
  code: "not_administrator",
  status: 403
}) {}

/** The app id is held by another app, here or at accounts (an app accounts holds from another source). */
export class AppIdTaken extends ApiError<AppIdTaken>()("AppIdTaken", {
  code: "app_id_taken",
  status: 409
}) {}

export const ReadinessProblem = Schema.Struct({ field: Schema.String, message: Schema.String }).annotations({
  identifier: "ReadinessProblem"
})

/** Publishing an app that is not ready: every problem of its readiness, by field. */
export class AppNotReady extends ApiError<AppNotReady>()("AppNotReady", {
  code: "app_not_ready",
  status: 422,
  details: Schema.Struct({ errors: Schema.Array(ReadinessProblem) })
}) {}

/**
 * Accounts refused to hold the app as the registry has it (a field accounts rules otherwise, an author accounts
 * no longer counts as an active Carbon). The change is not made; retrying will not help until that is resolved.
 */
export class AccountsRefused extends ApiError<AccountsRefused>()("AccountsRefused", {
  code: "accounts_refused",
  status: 502,
  details: Schema.Struct({
    code: Schema.String.annotations({ description: "accounts' error code" }),
    fields: Schema.NullOr(Schema.Record({ key: Schema.String, value: Schema.String }))
  })
}) {}
