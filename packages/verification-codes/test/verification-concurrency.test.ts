import { describe, expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import { VerificationCodes } from "../src/VerificationCodes.ts"
import { latestCodeTo, signInCode, twoProcessesOnOneDatabase, wrongCodeFor } from "./support/verification.ts"

const JANE = "jane@example.com"

describe("VerificationCodes under concurrency", () => {
  it.scoped("of concurrent checks of one right code, from two processes, exactly one succeeds", () =>
    Effect.gen(function*() {
      const [first, second] = yield* twoProcessesOnOneDatabase
      const challenge = yield* Effect.flatMap(VerificationCodes, (codes) => codes.send(signInCode())).pipe(
        Effect.provide(first)
      )
      const code = yield* Effect.provide(latestCodeTo(JANE), first)
      const check = Effect.flatMap(VerificationCodes, (codes) =>
        codes.verify({ challengeId: challenge.challenge_id, purpose: "cli_login", code }))
      const results = yield* Effect.all(
        Array.from({ length: 20 }, (_, i) => Effect.either(Effect.provide(check, i % 2 === 0 ? first : second))),
        { concurrency: "unbounded" }
      )
      expect(results.filter(Either.isRight)).toHaveLength(1)
      const refusals = results.filter(Either.isLeft).map((result) => result.left.code)
      expect(refusals).toEqual(Array.from({ length: 19 }, () => "code_already_used"))
    }))

  it.scoped("concurrent wrong codes to one address are all counted: exactly the tenth locks it", () =>
    Effect.gen(function*() {
      const [first, second] = yield* twoProcessesOnOneDatabase
      const sendFrom = (process: typeof first) =>
        Effect.gen(function*() {
          const codes = yield* VerificationCodes
          const challenge = yield* codes.send(signInCode())
          return { challenge, code: yield* latestCodeTo(JANE), process }
        }).pipe(Effect.provide(process))
      const sent = [yield* sendFrom(first), yield* sendFrom(second)]
      const wrong = (i: number) => {
        const { challenge, code, process } = sent[i % 2]!
        return Effect.flatMap(VerificationCodes, (codes) =>
          codes.verify({ challengeId: challenge.challenge_id, purpose: "cli_login", code: wrongCodeFor(code) })).pipe(
            Effect.flip,
            Effect.provide(process)
          )
      }
      const errors = yield* Effect.all(Array.from({ length: 10 }, (_, i) => wrong(i)), { concurrency: "unbounded" })
      const remaining = errors.map((error) => error._tag === "InvalidCode" ? error.details?.remaining_attempts : -1)
      expect([...remaining].sort((a, b) => (a ?? -1) - (b ?? -1))).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
      const locking = errors.filter((error) => error._tag === "InvalidCode" && error.details?.locked_until !== undefined)
      expect(locking).toHaveLength(1)
      const { challenge, code } = sent[0]!
      const locked = yield* Effect.flatMap(VerificationCodes, (codes) =>
        codes.verify({ challengeId: challenge.challenge_id, purpose: "cli_login", code })).pipe(
          Effect.flip,
          Effect.provide(second)
        )
      expect(locked).toMatchObject({ code: "verification_locked" })
    }))
})
