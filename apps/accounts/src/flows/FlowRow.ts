import { Either, ParseResult, Schema } from "effect"
import { FlowState } from "./FlowState.ts"
import { fromLegacy, LegacyFlowState, LegacyStepName } from "./LegacyFlowState.ts"

const columns = {
  id: Schema.String,
  cookie_hash: Schema.String,
  app_id: Schema.String,
  version: Schema.Number,
  created_at: Schema.DateFromSelf,
  expires_at: Schema.DateFromSelf
}

/** A row of `flows` as stored now: the state holds its step (the `step` column repeats its tag for SQL readers). */
const CurrentRow = Schema.Struct({ ...columns, state: FlowState })

const isLegacyStep = Schema.is(LegacyStepName)

/**
 * A row stored in the flat shape, read as a current one. Its `step` column is a plain string here:
 * a literal would make the union try this member first for every row.
 */
const LegacyRow = Schema.transformOrFail(
  Schema.Struct({ ...columns, step: Schema.String, state: LegacyFlowState }),
  Schema.typeSchema(CurrentRow),
  {
    strict: true,
    decode: ({ state, step, ...row }, _, ast, stored) => {
      const converted = isLegacyStep(step) ? fromLegacy(step, state) : Either.left(`unknown step ${step}`)
      return Either.match(converted, {
        onLeft: (problem) => ParseResult.fail(new ParseResult.Type(ast, stored, problem)),
        onRight: (current) => ParseResult.succeed({ ...row, state: current })
      })
    },
    encode: (row, _, ast) => ParseResult.fail(new ParseResult.Forbidden(ast, row, "flows are written in the current shape only"))
  }
)

/** A flow as read from `flows`, whichever shape its state was stored in. */
export const FlowRow = Schema.Union(CurrentRow, LegacyRow)
export type FlowRow = typeof FlowRow.Type
