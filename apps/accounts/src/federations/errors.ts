import { ApiError } from "@platform/http"
import { Schema } from "effect"

/** Federation errors: spec 1 leaves their codes "not shown" (docs/decisions.md, Federations). */

/** A Silicon has at most 20 live trusts. */
export class TooManyFederations extends ApiError<TooManyFederations>()("TooManyFederations", {
  code: "too_many_federations",
  status: 409,
  details: Schema.Struct({ limit: Schema.Int })
}) {}

export class FederationNotFound extends ApiError<FederationNotFound>()("FederationNotFound", {
  code: "federation_not_found",
  status: 404
}) {}
