import { describe, expect, it } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import type { VerificationChallenge } from "../src/VerificationChallenge.ts"
import { VerificationCodes } from "../src/VerificationCodes.ts"
import { latestCodeTo, signInCode, verificationOverFreshDatabase, wrongCodeFor } from "./support/verification.ts"

const JANE = "jane@example.com"

/** Sends a code to `destination` and returns the challenge with the code that was delivered. */
const sendTo = (destination: string) =>
  Effect.gen(function*() {
    const codes = yield* VerificationCodes
    const challenge = yield* codes.send(signInCode({ destination }))
    return { challenge, code: yield* latestCodeTo(destination) }
  })

const attempt = (challenge: VerificationChallenge, code: string) =>
  Effect.flatMap(VerificationCodes, (codes) =>
    codes.verify({ challengeId: challenge.challenge_id, purpose: "cli_login", code }))

const wrongAttempt = (challenge: VerificationChallenge, rightCode: string) =>
  Effect.flip(attempt(challenge, wrongCodeFor(rightCode)))

describe("VerificationCodes lockout", () => {
  it.effect("wrong codes count down remaining_attempts; the tenth in a row locks the address for 60 seconds", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(Date.parse("2026-10-01T12:00:00.000Z"))
      const { challenge, code } = yield* sendTo(JANE)
      for (let remaining = 9; remaining >= 1; remaining--) {
        const error = yield* wrongAttempt(challenge, code)
        expect(error).toMatchObject({ code: "invalid_code", status: 422, details: { remaining_attempts: remaining } })
        expect(error.details).not.toHaveProperty("locked_until")
      }
      const tenth = yield* wrongAttempt(challenge, code)
      expect(tenth).toMatchObject({
        code: "invalid_code",
        details: { remaining_attempts: 0, locked_until: "2026-10-01T12:01:00.000Z" }
      })
    }).pipe(Effect.provide(verificationOverFreshDatabase())))

  it.effect("a locked address answers 423 even to the right code until the 60 seconds pass", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(Date.parse("2026-10-01T12:00:00.000Z"))
      const { challenge, code } = yield* sendTo(JANE)
      for (let i = 0; i < 10; i++) yield* wrongAttempt(challenge, code)

      const locked = yield* Effect.flip(attempt(challenge, code))
      expect(locked).toMatchObject({
        code: "verification_locked",
        status: 423,
        details: { locked_until: "2026-10-01T12:01:00.000Z", retry_after_seconds: 60 }
      })
      yield* TestClock.adjust("59999 millis")
      expect(yield* Effect.flip(attempt(challenge, code))).toMatchObject({
        code: "verification_locked",
        details: { retry_after_seconds: 1 }
      })
      yield* TestClock.adjust("1 millis")
      expect(yield* attempt(challenge, code)).toMatchObject({ destination: JANE })
    }).pipe(Effect.provide(verificationOverFreshDatabase())))

  it.effect("after a lock ends the address has ten attempts anew", () =>
    Effect.gen(function*() {
      const { challenge, code } = yield* sendTo(JANE)
      for (let i = 0; i < 10; i++) yield* wrongAttempt(challenge, code)
      yield* TestClock.adjust("60 seconds")
      expect(yield* wrongAttempt(challenge, code)).toMatchObject({ details: { remaining_attempts: 9 } })
    }).pipe(Effect.provide(verificationOverFreshDatabase())))

  it.effect("the streak and the lock belong to the address, across its challenges; other addresses are untouched", () =>
    Effect.gen(function*() {
      const first = yield* sendTo(JANE)
      const second = yield* sendTo(JANE)
      const other = yield* sendTo("john@example.com")
      for (let i = 0; i < 5; i++) yield* wrongAttempt(first.challenge, first.code)
      for (let remaining = 4; remaining >= 1; remaining--) {
        expect(yield* wrongAttempt(second.challenge, second.code)).toMatchObject({
          details: { remaining_attempts: remaining }
        })
      }
      expect(yield* wrongAttempt(first.challenge, first.code)).toMatchObject({ details: { remaining_attempts: 0 } })
      const third = yield* sendTo(JANE)
      expect(yield* Effect.flip(attempt(third.challenge, third.code))).toMatchObject({ code: "verification_locked" })
      expect(yield* Effect.flip(attempt(second.challenge, second.code))).toMatchObject({ code: "verification_locked" })
      expect(yield* attempt(other.challenge, other.code)).toMatchObject({ destination: "john@example.com" })
    }).pipe(Effect.provide(verificationOverFreshDatabase())))

  it.effect("a right code ends the streak", () =>
    Effect.gen(function*() {
      const first = yield* sendTo(JANE)
      for (let i = 0; i < 9; i++) yield* wrongAttempt(first.challenge, first.code)
      yield* attempt(first.challenge, first.code)
      const next = yield* sendTo(JANE)
      expect(yield* wrongAttempt(next.challenge, next.code)).toMatchObject({ details: { remaining_attempts: 9 } })
    }).pipe(Effect.provide(verificationOverFreshDatabase())))
})

describe("VerificationCodes resend", () => {
  it.effect("replaces the code, renews its lifetime and keeps the wrong-code streak", () =>
    Effect.gen(function*() {
      const codes = yield* VerificationCodes
      yield* TestClock.setTime(Date.parse("2026-10-01T12:00:00.000Z"))
      const { challenge, code: oldCode } = yield* sendTo(JANE)
      for (let i = 0; i < 3; i++) yield* wrongAttempt(challenge, oldCode)

      yield* TestClock.adjust("45 seconds")
      const resent = yield* codes.resend({
        challengeId: challenge.challenge_id,
        purpose: "cli_login",
        clientAddress: "198.51.100.7",
        message: (code) => ({ subject: "Your new sign-in code", text: `Your code is ${code}.` })
      })
      expect(resent).toEqual({
        ...challenge,
        expires_at: "2026-10-01T12:10:45.000Z",
        resend_available_at: "2026-10-01T12:01:15.000Z"
      })
      const newCode = yield* latestCodeTo(JANE)

      // A resend that happened to draw the same six digits (one in a million) leaves nothing to check here.
      if (newCode !== oldCode) {
        expect(yield* Effect.flip(attempt(challenge, oldCode))).toMatchObject({
          code: "invalid_code",
          details: { remaining_attempts: 6 }
        })
      }
      // 12:10:15: past the first code's lifetime, within the new one's.
      yield* TestClock.adjust("570 seconds")
      expect(yield* attempt(challenge, newCode)).toMatchObject({ challengeId: challenge.challenge_id })
    }).pipe(Effect.provide(verificationOverFreshDatabase())))

  it.effect("may come before resend_available_at; a used or unknown challenge cannot be resent", () =>
    Effect.gen(function*() {
      const codes = yield* VerificationCodes
      const { challenge } = yield* sendTo(JANE)
      const resend = (challengeId: string) =>
        codes.resend({
          challengeId,
          purpose: "cli_login",
          clientAddress: "198.51.100.7",
          message: (c) => ({ subject: "Code", text: c })
        })
      yield* resend(challenge.challenge_id)
      yield* attempt(challenge, yield* latestCodeTo(JANE))
      expect(yield* Effect.flip(resend(challenge.challenge_id))).toMatchObject({ code: "code_already_used" })
      expect(yield* Effect.flip(resend("vch_unknown"))).toMatchObject({ code: "challenge_not_found" })
    }).pipe(Effect.provide(verificationOverFreshDatabase())))
})
