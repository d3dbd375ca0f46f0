import { ApiError } from "@platform/http"

/** The only author of an app cannot leave it (spec 2). */
export class LastAuthor extends ApiError<LastAuthor>()("LastAuthor", {
  code: "last_author",
  status: 409
}) {}

/**
 * The change would leave an app with authors but no Carbon among them; accounts keeps every app with an
 * active Carbon as its owner, so a Carbon stays until another joins.
 */
export class LastCarbonAuthor extends ApiError<LastCarbonAuthor>()("LastCarbonAuthor", {
  code: "last_carbon_author",
  status: 409
}) {}

/** No author of the app has this uuid. */
export class AuthorNotFound extends ApiError<AuthorNotFound>()("AuthorNotFound", {
  code: "author_not_found",
  status: 404
}) {}

/** The administrator removes others; to go, transfer administration or leave. */
export class CannotRemoveSelf extends ApiError<CannotRemoveSelf>()("CannotRemoveSelf", {
  code: "cannot_remove_self",
  status: 409
}) {}
