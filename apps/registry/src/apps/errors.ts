import { ApiError } from "@platform/http"

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
