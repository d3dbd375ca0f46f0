import { ApiError } from "@platform/http"

/** 403: the custodian's allow-list does not name the app (spec 1, Errors: "Silicon and custody"). */
export class AppNotAllowed extends ApiError<AppNotAllowed>()("AppNotAllowed", {
  code: "app_not_allowed",
  status: 403
}) {}
