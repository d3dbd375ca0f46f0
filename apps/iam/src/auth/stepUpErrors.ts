import { ApiError, errorResponse } from "@platform/http"
import { Schema } from "effect"

/** Refusals of an action that needs step-up (spec 2: each its own code). */
export class StepUpRequired extends ApiError<StepUpRequired>()("StepUpRequired", {
  code: "step_up_required",
  status: 403
}) {}

export class StepUpExpired extends ApiError<StepUpExpired>()("StepUpExpired", {
  code: "step_up_expired",
  status: 403
}) {}

export class StepUpUsed extends ApiError<StepUpUsed>()("StepUpUsed", {
  code: "step_up_used",
  status: 403
}) {}

/** A token minted for another identity, action, resource or application (or not a step-up token at all). */
export class StepUpMismatch extends ApiError<StepUpMismatch>()("StepUpMismatch", {
  code: "step_up_mismatch",
  status: 403
}) {}

/** Declare on every endpoint whose action needs step-up. */
export const StepUpRefusals = Schema.Union(
  errorResponse(StepUpRequired),
  errorResponse(StepUpExpired),
  errorResponse(StepUpUsed),
  errorResponse(StepUpMismatch)
)
