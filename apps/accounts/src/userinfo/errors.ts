import { ApiError } from "@platform/http"

/** Userinfo's own statuses of spec 1's catalogue (app_disabled is 401 here, not 403). */

export class UserinfoAppDisabled extends ApiError<UserinfoAppDisabled>()("UserinfoAppDisabled", {
  code: "app_disabled",
  status: 401
}) {}

export class AccessRemoved extends ApiError<AccessRemoved>()("AccessRemoved", {
  code: "access_removed",
  status: 401
}) {}

export class MembershipInactive extends ApiError<MembershipInactive>()("MembershipInactive", {
  code: "membership_inactive",
  status: 401
}) {}

/** RFC 6750 §2: a request carrying the token in more than one way (header and form body). */
export class TwoTokens extends ApiError<TwoTokens>()("TwoTokens", {
  code: "invalid_request",
  status: 400
}) {}
