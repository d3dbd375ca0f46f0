import { ApiError } from "@platform/http"
import { Schema } from "effect"

/** GET /v1/capabilities?require=…: at least one required capability is not offered (spec 2). */
export class RequirementsNotMet extends ApiError<RequirementsNotMet>()("RequirementsNotMet", {
  code: "requirements_not_met",
  status: 422,
  details: Schema.Struct({
    missing: Schema.Array(Schema.String).annotations({ description: "The required capabilities this registry does not offer, as named" })
  })
}) {}
