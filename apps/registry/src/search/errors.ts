import { ApiError } from "@platform/http"
import { Schema } from "effect"

export const QueryValueProblem = Schema.Struct({
  parameter: Schema.String,
  problem: Schema.String,
  accepted: Schema.NullOr(Schema.Array(Schema.String)).annotations({ description: "The values taken, for a parameter with a fixed set" }),
  minimum: Schema.NullOr(Schema.Number).annotations({ description: "The smallest number taken, for a numeric parameter" }),
  maximum: Schema.NullOr(Schema.Number).annotations({ description: "The largest number taken, for a numeric parameter; null: no bound" })
}).annotations({ identifier: "QueryValueProblem" })

/** A query parameter with a value the route does not take (spec 2: bad query value, 400 listing accepted values). */
export class InvalidQueryValue extends ApiError<InvalidQueryValue>()("InvalidQueryValue", {
  code: "invalid_query",
  status: 400,
  details: QueryValueProblem
}) {}
