import type { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Clock, Data, Effect } from "effect"
import type { ChallengeStore, StoredChallenge } from "./challengeStore.ts"
import { type CodeAttemptRefusal, makeCodeAttempts } from "./codeAttempts.ts"
import { codeMatches } from "./codeDigest.ts"
import { addressKey } from "./destination.ts"
import type { ChallengeNotFound, CodeAlreadyUsed, CodeExpired, InvalidCode, VerificationLocked } from "./errors.ts"
import type { VerificationCodesPolicy } from "./policy.ts"
import { challengeNotFound, codeAlreadyUsed, makeRefusals } from "./refusals.ts"
import type { VerifiedAddress, VerifyCodeInput } from "./VerificationChallenge.ts"

/** What one check of a code decided; decided and written in one transaction, answered after it commits. */
type CodeCheck = Data.TaggedEnum<{
  NotFound: {}
  AlreadyUsed: {}
  Expired: {}
  Refused: { readonly refusal: CodeAttemptRefusal }
  Right: { readonly challenge: StoredChallenge }
}>
const CodeCheck = Data.taggedEnum<CodeCheck>()

class CodeHasExpired extends Data.TaggedError("CodeHasExpired") {}

type VerifyError = InvalidCode | CodeExpired | CodeAlreadyUsed | ChallengeNotFound | VerificationLocked

/**
 * Checks a code. The challenge row and then the address's streak row are locked for the
 * whole check, so concurrent checks of one challenge or one address (from any process)
 * run one after another: a right code is used exactly once and no wrong code goes uncounted.
 * The order of the answers: unknown, used, locked, expired, then the code itself.
 */
export const makeVerifyCode = (
  policy: VerificationCodesPolicy,
  sql: SqlClient.SqlClient,
  challenges: ChallengeStore
) => {
  const refusals = makeRefusals(policy)
  const attempts = makeCodeAttempts(policy, sql)

  const check = (input: VerifyCodeInput, nowMillis: number): Effect.Effect<CodeCheck, SqlError> =>
    Effect.gen(function*() {
      const challenge = yield* challenges.lock(input.challengeId)
      if (challenge === undefined || challenge.purpose !== input.purpose) return CodeCheck.NotFound()
      if (challenge.used) return CodeCheck.AlreadyUsed()
      const isRight = challenge.expiresAtMillis <= nowMillis
        ? Effect.fail(new CodeHasExpired())
        : Effect.succeed(codeMatches(challenge.codeDigest, challenge.id, input.code))
      const attempt = yield* attempts.attempt(addressKey(challenge.channel, challenge.destination), nowMillis, isRight)
      if (attempt._tag !== "Right") return CodeCheck.Refused({ refusal: attempt })
      yield* challenges.markUsed(challenge.id, new Date(nowMillis))
      return CodeCheck.Right({ challenge })
    }).pipe(Effect.catchTag("CodeHasExpired", () => Effect.succeed(CodeCheck.Expired())))

  const answer = (outcome: CodeCheck, nowMillis: number): Effect.Effect<VerifiedAddress, VerifyError> =>
    CodeCheck.$match(outcome, {
      NotFound: () => Effect.fail(challengeNotFound()),
      AlreadyUsed: () => Effect.fail(codeAlreadyUsed()),
      Expired: () => Effect.fail(refusals.codeExpired()),
      Refused: ({ refusal }) => Effect.fail(attempts.refusal(refusal, nowMillis)),
      Right: ({ challenge }) =>
        Effect.succeed({
          challengeId: challenge.id,
          purpose: challenge.purpose,
          channel: challenge.channel,
          destination: challenge.destination
        })
    })

  return (input: VerifyCodeInput): Effect.Effect<VerifiedAddress, VerifyError> =>
    Effect.gen(function*() {
      const nowMillis = yield* Clock.currentTimeMillis
      const outcome = yield* Effect.orDie(sql.withTransaction(check(input, nowMillis)))
      return yield* answer(outcome, nowMillis)
    }).pipe(Effect.withSpan("VerificationCodes.verify"))
}
