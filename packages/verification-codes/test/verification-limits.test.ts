import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, TestClock } from "effect"
import { VerificationCodes } from "../src/VerificationCodes.ts"
import { VerificationSweeperLive } from "../src/VerificationSweeper.ts"
import { challengeRows, signInCode, verificationOverFreshDatabase } from "./support/verification.ts"

describe("VerificationCodes rate limits", () => {
  it.effect("the 11th code to one address in 10 minutes is 429 rate_limited, whatever the network", () =>
    Effect.gen(function*() {
      const codes = yield* VerificationCodes
      for (let i = 0; i < 10; i++) {
        yield* codes.send(signInCode({ clientAddress: `198.51.100.${i}` }))
      }
      const refused = yield* Effect.flip(codes.send(signInCode({ clientAddress: "203.0.113.1" })))
      expect(refused).toMatchObject({ code: "rate_limited", status: 429, details: { retry_after_seconds: 600 } })
      expect(refused.message).toContain("10 per 10 minutes per address")
      expect(yield* challengeRows).toBe(10)
      // Another address is not affected; the window ends after 10 minutes.
      yield* codes.send(signInCode({ destination: "john@example.com" }))
      yield* TestClock.adjust("10 minutes")
      yield* codes.send(signInCode())
    }).pipe(Effect.provide(verificationOverFreshDatabase())))

  it.effect("a resend counts as a code", () =>
    Effect.gen(function*() {
      const codes = yield* VerificationCodes
      const challenge = yield* codes.send(signInCode())
      const resend = codes.resend({
        challengeId: challenge.challenge_id,
        purpose: "cli_login",
        clientAddress: "198.51.100.7",
        message: (code) => ({ subject: "Code", text: code })
      })
      for (let i = 0; i < 9; i++) yield* resend
      expect(yield* Effect.flip(resend)).toMatchObject({ code: "rate_limited" })
      expect(yield* Effect.flip(codes.send(signInCode()))).toMatchObject({ code: "rate_limited" })
    }).pipe(Effect.provide(verificationOverFreshDatabase())))

  it.effect("the 31st code from one network in 10 minutes is 429 rate_limited", () =>
    Effect.gen(function*() {
      const codes = yield* VerificationCodes
      for (let i = 0; i < 30; i++) {
        yield* codes.send(signInCode({ destination: `person${i}@example.com` }))
      }
      const refused = yield* Effect.flip(codes.send(signInCode({ destination: "another@example.com" })))
      expect(refused).toMatchObject({ code: "rate_limited", status: 429 })
      expect(refused.message).toContain("30 per 10 minutes per IP")
      yield* codes.send(signInCode({ destination: "another@example.com", clientAddress: "203.0.113.9" }))
    }).pipe(Effect.provide(verificationOverFreshDatabase())))
})

describe("VerificationCodes retention", () => {
  it.effect("the sweep deletes challenges 1 day after they expire", () =>
    Effect.gen(function*() {
      const codes = yield* VerificationCodes
      const challenge = yield* codes.send(signInCode())
      yield* TestClock.adjust("10 minutes")
      yield* codes.send(signInCode({ destination: "john@example.com" }))
      yield* TestClock.adjust("1 day")
      expect(yield* codes.sweep).toEqual({ challenges: 0, streaks: 0 })
      yield* TestClock.adjust("1 millis")
      expect(yield* codes.sweep).toMatchObject({ challenges: 1 })
      expect(yield* Effect.flip(codes.describe(challenge.challenge_id, "cli_login"))).toMatchObject({
        code: "challenge_not_found"
      })
      expect(yield* challengeRows).toBe(1)
    }).pipe(Effect.provide(verificationOverFreshDatabase())))

  it.effect("the sweep forgets a wrong-code streak a day after its last attempt", () =>
    Effect.gen(function*() {
      const codes = yield* VerificationCodes
      const challenge = yield* codes.send(signInCode())
      const wrong = codes.verify({ challengeId: challenge.challenge_id, purpose: "cli_login", code: "not-a-code" })
      expect(yield* Effect.flip(wrong)).toMatchObject({ details: { remaining_attempts: 9 } })
      yield* TestClock.adjust("1 day")
      expect(yield* codes.sweep).toMatchObject({ streaks: 0 })
      yield* TestClock.adjust("1 millis")
      expect(yield* codes.sweep).toEqual({ challenges: 0, streaks: 1 })
    }).pipe(Effect.provide(verificationOverFreshDatabase())))

  it.scoped("VerificationSweeperLive runs the sweep every 10 minutes while it lives", () =>
    Effect.gen(function*() {
      const codes = yield* VerificationCodes
      yield* codes.send(signInCode())
      yield* Layer.build(VerificationSweeperLive)
      yield* TestClock.adjust("1 day")
      expect(yield* challengeRows).toBe(1)
      // Move time in sweep-sized steps, giving the sweep fiber real time to run its queries between them
      // (it may still be busy with an earlier sweep when a step lands).
      for (let i = 0; i < 200 && (yield* challengeRows) > 0; i++) {
        yield* TestClock.adjust("10 minutes")
        yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 25)))
      }
      expect(yield* challengeRows).toBe(0)
    }).pipe(Effect.provide(verificationOverFreshDatabase())))
})
