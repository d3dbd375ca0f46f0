import { Schema } from "effect"
import { EVENT_TYPES } from "../events/AccountEvent.ts"

export const MAX_STREAM_TYPES = 20

/** `types=a,b`: a comma-separated list of known types, at most 20 entries (400 invalid_query otherwise). */
export const StreamTypes = Schema.compose(
  Schema.split(","),
  Schema.Array(Schema.Literal(...EVENT_TYPES)).pipe(Schema.minItems(1), Schema.maxItems(MAX_STREAM_TYPES))
).annotations({
  description: `Comma-separated event types to receive (at most ${MAX_STREAM_TYPES}; one parameter, not repeated): ${
    EVENT_TYPES.join(", ")
  }. Omitted: every type.`
})
