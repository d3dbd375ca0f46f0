import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { errorResponse, RateLimited } from "@platform/http"
import { Schema } from "effect"
import { InvalidId } from "./errors.ts"

export const IdAvailabilityQuery = Schema.Struct({
  id: Schema.String.annotations({ description: "c:<handle> or si:<handle>, any case; a bare handle takes the kind of for" }),
  for: Schema.optional(
    Schema.Literal("carbon", "silicon").annotations({
      description: "The kind of account the id is for; default carbon. Must agree with the id's prefix."
    })
  )
})

const Suggestions = Schema.Array(Schema.String).annotations({ description: "A few free ids close to the one asked" })

export const IdAvailable = Schema.Struct({
  id: Schema.String,
  available: Schema.Literal(true)
}).annotations({ identifier: "IdAvailable" })

export const IdTakenAnswer = Schema.Struct({
  id: Schema.String,
  available: Schema.Literal(false),
  reason: Schema.Literal("id_taken"),
  suggestions: Suggestions
}).annotations({ identifier: "IdTakenAnswer" })

export const IdReservedAnswer = Schema.Struct({
  id: Schema.String,
  available: Schema.Literal(false),
  reason: Schema.Literal("id_reserved"),
  reserved_until: Schema.String.annotations({ description: "RFC 3339 UTC with milliseconds" }),
  suggestions: Suggestions
}).annotations({ identifier: "IdReservedAnswer" })

export const IdAvailability = Schema.Union(IdAvailable, IdTakenAnswer, IdReservedAnswer).annotations({
  identifier: "IdAvailability"
})

export class AccountIdsApi extends HttpApiGroup.make("ids")
  .add(
    HttpApiEndpoint.get("available", "/v1/ids/available")
      .setUrlParams(IdAvailabilityQuery)
      .addSuccess(IdAvailability)
      .addError(errorResponse(InvalidId))
      .addError(errorResponse(RateLimited))
      .annotate(
        OpenApi.Description,
        "Whether an id can be taken now. Taken and reserved ids answer 200 with available false, the reason " +
          "(the error code creating it would give) and free suggestions; a malformed or reserved-word id is " +
          "422 invalid_id (details.reason invalid or reserved_word). Public; 120 per minute per IP."
      )
  )
  .annotate(OpenApi.Title, "Ids")
{}
