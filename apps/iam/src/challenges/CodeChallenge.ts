import { errorResponse, RateLimited } from "@platform/http"
import { ChallengeNotFound, CodeAlreadyUsed, CodeExpired, InvalidCode, VerificationLocked } from "@platform/verification-codes"
import { Schema } from "effect"
import { PhoneVerificationUnavailable } from "../phone-verification/errors.ts"

/** Where a code went: email, or a phone by SMS (spec 2 calls the channels email and phone). */
export const CodeChannel = Schema.Literal("email", "phone")
export type CodeChannel = typeof CodeChannel.Type

export const SentCode = Schema.Struct({
  channel: CodeChannel,
  destination: Schema.String.annotations({ description: "Masked, e.g. j***@example.com or +44*******789" })
}).annotations({ identifier: "SentCode" })

/** A challenge as its caller sees it: what to send the code back to, where codes went, until when. */
export const CodeChallengeView = Schema.Struct({
  session_id: Schema.String.annotations({ description: "The challenge session: post the code to its verify path" }),
  channels: Schema.Array(SentCode).annotations({
    description: "Every channel a code went to; a code from any of them answers the challenge"
  }),
  expires_at: Schema.String.annotations({
    description: "RFC 3339 UTC with milliseconds; 10 minutes after the code was sent, never moved by a cooldown"
  })
}).annotations({ identifier: "CodeChallenge" })
export type CodeChallengeView = typeof CodeChallengeView.Type

/** The body of every verify route. Anything but the current code counts as a wrong one. */
export const CodeAnswer = Schema.Struct({
  code: Schema.String.pipe(Schema.maxLength(20)).annotations({ description: "The six digits received" })
}).annotations({ identifier: "CodeAnswer" })

/** The path of every verify route. */
export const ChallengePath = Schema.Struct({ session_id: Schema.String.pipe(Schema.maxLength(100)) })

/** Declare on every verify route: what answering a challenge may refuse with. */
export const CodeRefusals = Schema.Union(
  errorResponse(ChallengeNotFound),
  errorResponse(CodeAlreadyUsed),
  errorResponse(CodeExpired),
  errorResponse(InvalidCode),
  errorResponse(VerificationLocked),
  errorResponse(RateLimited),
  errorResponse(PhoneVerificationUnavailable)
)
