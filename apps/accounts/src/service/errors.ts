import { ApiError } from "@platform/http"
import { Schema } from "effect"

export class RequirementsNotMet extends ApiError<RequirementsNotMet>()("RequirementsNotMet", {
  code: "requirements_not_met",
  status: 422,
  details: Schema.Struct({ missing: Schema.Array(Schema.String) })
}) {}
