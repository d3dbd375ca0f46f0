import { ApiError } from "@platform/http"

/** Errors of `/v1/me/identities` that spec 1 leaves "not shown" (decisions.md, Audit of spec 1). */

export class IdentityNotFound extends ApiError<IdentityNotFound>()("IdentityNotFound", {
  code: "identity_not_found",
  status: 404,
  description: "The caller has no linked identity of this id"
}) {}

export class IdentityLinkNotFound extends ApiError<IdentityLinkNotFound>()("IdentityLinkNotFound", {
  code: "identity_link_not_found",
  status: 404,
  description: "The caller started no link of this id (or it expired more than a day ago)"
}) {}
