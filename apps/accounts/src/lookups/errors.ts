import { ApiError } from "@platform/http"
import { Schema } from "effect"
import { InvalidIdReason } from "../accounts/errors.ts"

/** invalid_id as GET /v1/accounts/by-id/{id} answers it: 400, a malformed path (spec 1, Errors). */
export class InvalidIdInPath extends ApiError<InvalidIdInPath>()("InvalidIdInPath", {
  code: "invalid_id",
  status: 400,
  details: Schema.Struct({ reason: InvalidIdReason })
}) {}
