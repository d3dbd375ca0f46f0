import { Data, Duration, Effect, Predicate } from "effect"
import { AccountsUnavailable } from "./errors.ts"

class NoAnswerInTime extends Data.TaggedError("NoAnswerInTime") {}

/** What is not accounts' answer to the question: none (in time), one outside the contract, or the token refused. */
type NoAnswer = { readonly _tag: (typeof NO_ANSWER)[number] }
const NO_ANSWER = [
  "NoAnswerInTime",
  "RequestError",
  "ResponseError",
  "ParseError",
  "InternalTokenRequired",
  "InvalidInternalToken",
  "InternalApiDisabled"
] as const
const isNoAnswer = (error: unknown): error is NoAnswer =>
  Predicate.hasProperty(error, "_tag") && (NO_ANSWER as ReadonlyArray<unknown>).includes(error._tag)

const unavailable = (cause: string) =>
  Effect.zipRight(
    Effect.logWarning(`accounts did not answer: ${cause}`),
    Effect.fail(new AccountsUnavailable({ message: "Accounts is unavailable for a moment; try again shortly." }))
  )

/**
 * A call of accounts' internal routes as its clients see it: accounts' typed refusals stay as they are;
 * no answer within `timeout` (default 5 seconds), an answer outside the contract or the internal token
 * refused are AccountsUnavailable.
 */
export const askedWithin = (timeout: Duration.DurationInput = Duration.seconds(5)) =>
<A, E>(call: Effect.Effect<A, E>): Effect.Effect<A, Exclude<E, NoAnswer> | AccountsUnavailable> =>
  call.pipe(
    Effect.timeoutFail({ duration: timeout, onTimeout: () => new NoAnswerInTime() }),
    Effect.catchAll((error): Effect.Effect<never, E | AccountsUnavailable> =>
      isNoAnswer(error) ? unavailable(error._tag) : Effect.fail(error as E)
    )
  ) as Effect.Effect<A, Exclude<E, NoAnswer> | AccountsUnavailable>
