import { ApiError } from "@platform/http"
import { Schema } from "effect"

/**
 * The verification-code errors (spec 1, Errors: Verification codes; Rate and locks). Their
 * tags name the schemas in a service's OpenAPI document, so they do not change. Routes that
 * check a code declare these; `RateLimited` (429) comes from `@platform/http`.
 */

const Timestamp = Schema.String.annotations({ description: "RFC 3339 UTC with milliseconds" })

export class InvalidCode extends ApiError<InvalidCode>()("InvalidCode", {
  code: "invalid_code",
  status: 422,
  details: Schema.Struct({
    remaining_attempts: Schema.Number.annotations({
      description: "Wrong codes still allowed for this address before it is locked"
    }),
    locked_until: Schema.optional(Timestamp.annotations({
      description: "Present on the wrong code that locked the address"
    }))
  })
}) {}

export class CodeExpired extends ApiError<CodeExpired>()("CodeExpired", {
  code: "code_expired",
  status: 410
}) {}

export class CodeAlreadyUsed extends ApiError<CodeAlreadyUsed>()("CodeAlreadyUsed", {
  code: "code_already_used",
  status: 409
}) {}

export class ChallengeNotFound extends ApiError<ChallengeNotFound>()("ChallengeNotFound", {
  code: "challenge_not_found",
  status: 404
}) {}

export class NoCodeSent extends ApiError<NoCodeSent>()("NoCodeSent", {
  code: "no_code_sent",
  status: 409
}) {}

export class VerificationLocked extends ApiError<VerificationLocked>()("VerificationLocked", {
  code: "verification_locked",
  status: 423,
  details: Schema.Struct({
    locked_until: Timestamp,
    retry_after_seconds: Schema.Number
  })
}) {}
