import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, TestClock } from "effect"
import { makeRefusals } from "../src/refusals.ts"
import { VerificationCodes } from "../src/VerificationCodes.ts"
import { durationInWords, ordinal, secondsInWords } from "../src/words.ts"
import { latestCodeTo, signInCode, testPolicy, verificationOverFreshDatabase, wrongCodeFor } from "./support/verification.ts"

/** A service with other numbers than spec 1's. */
const otherPolicy = {
  ...testPolicy,
  codeDigits: 8,
  codeLifetime: Duration.minutes(5),
  wrongCodesBeforeLock: 3,
  lockDuration: Duration.seconds(30),
  challengeIdPrefix: "otp_"
}

describe("verification refusals", () => {
  it("say spec 1's numbers with spec 1's policy", () => {
    const refusals = makeRefusals(testPolicy)
    expect(refusals.codeExpired().message).toBe("This code has expired; codes are valid for 10 minutes.")
    expect(refusals.invalidCode(9, null).hint).toBe("9 more wrong codes lock this address for 60 seconds.")
    expect(refusals.invalidCode(1, null).hint).toBe("1 more wrong code locks this address for 60 seconds.")
    const locking = refusals.invalidCode(0, Date.parse("2026-10-01T12:01:00.000Z"))
    expect(locking.message).toBe("The code is not right. That was the 10th wrong code in a row for this address.")
    expect(locking.hint).toBe("Codes to this address are refused for 60 seconds.")
    expect(locking.details).toEqual({ remaining_attempts: 0, locked_until: "2026-10-01T12:01:00.000Z" })
    const locked = refusals.verificationLocked(Date.parse("2026-10-01T12:01:00.000Z"), Date.parse("2026-10-01T12:00:00.001Z"))
    expect(locked.hint).toBe("Retry after 60 seconds.")
  })

  it("put durations and counts in words", () => {
    expect([Duration.minutes(10), Duration.seconds(60), Duration.seconds(90), Duration.hours(72), Duration.days(1)].map(
      durationInWords
    )).toEqual(["10 minutes", "60 seconds", "90 seconds", "3 days", "24 hours"])
    expect(secondsInWords(Duration.seconds(1))).toBe("1 second")
    expect([1, 2, 3, 4, 10, 11, 12, 13, 21, 22, 23, 101].map(ordinal)).toEqual(
      ["1st", "2nd", "3rd", "4th", "10th", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st"]
    )
  })
})

describe("VerificationCodes with another service's policy", () => {
  it.effect("sends codes of its length, lifetime and id prefix", () =>
    Effect.gen(function*() {
      const codes = yield* VerificationCodes
      yield* TestClock.setTime(Date.parse("2026-10-01T12:00:00.000Z"))
      const challenge = yield* codes.send(signInCode())
      expect(challenge.challenge_id).toMatch(/^otp_[A-Za-z0-9_-]{22}$/)
      expect(challenge.expires_at).toBe("2026-10-01T12:05:00.000Z")
      expect(yield* latestCodeTo("jane@example.com")).toMatch(/^\d{8}$/)
      yield* TestClock.adjust("5 minutes")
      const expired = yield* Effect.flip(
        codes.verify({ challengeId: challenge.challenge_id, purpose: "cli_login", code: "12345678" })
      )
      expect(expired).toMatchObject({ code: "code_expired", message: "This code has expired; codes are valid for 5 minutes." })
    }).pipe(Effect.provide(verificationOverFreshDatabase(otherPolicy))))

  it.effect("locks the address after its number of wrong codes, for its lock duration", () =>
    Effect.gen(function*() {
      const codes = yield* VerificationCodes
      yield* TestClock.setTime(Date.parse("2026-10-01T12:00:00.000Z"))
      const challenge = yield* codes.send(signInCode())
      const code = yield* latestCodeTo("jane@example.com")
      const wrong = Effect.flip(
        codes.verify({ challengeId: challenge.challenge_id, purpose: "cli_login", code: wrongCodeFor(code) })
      )
      expect(yield* wrong).toMatchObject({
        details: { remaining_attempts: 2 },
        hint: "2 more wrong codes lock this address for 30 seconds."
      })
      yield* wrong
      expect(yield* wrong).toMatchObject({
        message: "The code is not right. That was the 3rd wrong code in a row for this address.",
        hint: "Codes to this address are refused for 30 seconds.",
        details: { remaining_attempts: 0, locked_until: "2026-10-01T12:00:30.000Z" }
      })
      const right = codes.verify({ challengeId: challenge.challenge_id, purpose: "cli_login", code })
      expect(yield* Effect.flip(right)).toMatchObject({ code: "verification_locked", details: { retry_after_seconds: 30 } })
      yield* TestClock.adjust("30 seconds")
      expect(yield* right).toMatchObject({ destination: "jane@example.com" })
    }).pipe(Effect.provide(verificationOverFreshDatabase(otherPolicy))))
})
