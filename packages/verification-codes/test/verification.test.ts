import { SqlClient } from "@effect/sql"
import { SqlError } from "@effect/sql/SqlError"
import { describe, expect, it } from "@effect/vitest"
import { TestDatabase } from "@platform/database"
import { MessageOutbox } from "@platform/mail"
import { RateLimiter } from "@platform/rate-limit"
import { Effect, Exit, Layer, TestClock } from "effect"
import { VerificationCodes } from "../src/VerificationCodes.ts"
import {
  challengeRows,
  deliveredMessages,
  latestCodeTo,
  signInCode,
  testPolicy,
  verificationMigrations,
  verificationOverFreshDatabase,
  wrongCodeFor
} from "./support/verification.ts"

describe("VerificationCodes", () => {
  it.effect("sends a code in a message and accepts it once", () =>
    Effect.gen(function*() {
      const codes = yield* VerificationCodes
      yield* TestClock.setTime(Date.parse("2026-10-01T12:00:00.000Z"))
      const challenge = yield* codes.send(signInCode())
      expect(challenge).toEqual({
        challenge_id: expect.stringMatching(/^vch_[A-Za-z0-9_-]{22}$/),
        channel: "email",
        destination: "j***@example.com",
        expires_at: "2026-10-01T12:10:00.000Z",
        resend_available_at: "2026-10-01T12:00:30.000Z"
      })

      const messages = yield* deliveredMessages
      expect(messages).toHaveLength(1)
      const message = messages[0]!
      expect(message).toMatchObject({ to: "jane@example.com", channel: "email", subject: "Your sign-in code" })
      expect(message.code).toMatch(/^\d{6}$/)
      expect(message.text).toContain(message.code!)

      const verified = yield* codes.verify({ challengeId: challenge.challenge_id, purpose: "cli_login", code: message.code! })
      expect(verified).toEqual({
        challengeId: challenge.challenge_id,
        purpose: "cli_login",
        channel: "email",
        destination: "jane@example.com"
      })
      const reused = yield* Effect.flip(
        codes.verify({ challengeId: challenge.challenge_id, purpose: "cli_login", code: message.code! })
      )
      expect(reused).toMatchObject({ code: "code_already_used", status: 409 })
    }).pipe(Effect.provide(verificationOverFreshDatabase())))

  it.effect("stores the code only as a digest", () =>
    Effect.gen(function*() {
      const codes = yield* VerificationCodes
      const sql = yield* SqlClient.SqlClient
      const challenge = yield* codes.send(signInCode())
      const code = yield* latestCodeTo("jane@example.com")
      const rows = yield* sql<{ readonly row: string }>`
        SELECT row_to_json(c)::text AS row FROM verification_challenges c WHERE id = ${challenge.challenge_id}
      `
      expect(rows[0]?.row).toBeDefined()
      expect(rows[0]?.row).not.toContain(code)
    }).pipe(Effect.provide(verificationOverFreshDatabase())))

  it.effect("sends by SMS with the phone masked", () =>
    Effect.gen(function*() {
      const codes = yield* VerificationCodes
      const challenge = yield* codes.send(signInCode({ channel: "sms", destination: "+447700900789" }))
      expect(challenge.destination).toBe("+44*******789")
      const messages = yield* deliveredMessages
      expect(messages[0]).toMatchObject({ to: "+447700900789", channel: "sms" })
    }).pipe(Effect.provide(verificationOverFreshDatabase())))

  it.effect("an unknown challenge, or one sent for another purpose, is challenge_not_found", () =>
    Effect.gen(function*() {
      const codes = yield* VerificationCodes
      const unknown = yield* Effect.flip(codes.verify({ challengeId: "vch_unknown", purpose: "cli_login", code: "123456" }))
      expect(unknown).toMatchObject({ code: "challenge_not_found", status: 404 })

      const challenge = yield* codes.send(signInCode({ purpose: "add_email:abc" }))
      const code = yield* latestCodeTo("jane@example.com")
      const otherPurpose = { challengeId: challenge.challenge_id, purpose: "add_email:xyz", code }
      expect(yield* Effect.flip(codes.verify(otherPurpose))).toMatchObject({ code: "challenge_not_found" })
      expect(yield* Effect.flip(codes.describe(challenge.challenge_id, "add_email:xyz"))).toMatchObject({
        code: "challenge_not_found"
      })
      expect(yield* codes.describe(challenge.challenge_id, "add_email:abc")).toEqual(challenge)
      // The refused attempt did not use the code up.
      expect(yield* codes.verify({ ...otherPurpose, purpose: "add_email:abc" })).toMatchObject({ purpose: "add_email:abc" })
    }).pipe(Effect.provide(verificationOverFreshDatabase())))

  it.effect("a code is valid for 10 minutes, then code_expired", () =>
    Effect.gen(function*() {
      const codes = yield* VerificationCodes
      const first = yield* codes.send(signInCode())
      const firstCode = yield* latestCodeTo("jane@example.com")
      const second = yield* codes.send(signInCode())
      const secondCode = yield* latestCodeTo("jane@example.com")
      yield* TestClock.adjust("599999 millis")
      yield* codes.verify({ challengeId: first.challenge_id, purpose: "cli_login", code: firstCode })
      yield* TestClock.adjust("1 millis")
      const expired = yield* Effect.flip(
        codes.verify({ challengeId: second.challenge_id, purpose: "cli_login", code: secondCode })
      )
      expect(expired).toMatchObject({ code: "code_expired", status: 410 })
      // An expired code is no guess: the wrong-code streak did not move.
      const wrong = yield* Effect.flip(
        codes.verify({ challengeId: second.challenge_id, purpose: "cli_login", code: wrongCodeFor(secondCode) })
      )
      expect(wrong).toMatchObject({ code: "code_expired" })
    }).pipe(Effect.provide(verificationOverFreshDatabase())))
})

describe("VerificationCodes transactions", () => {
  it.effect("the challenge and its message are not kept when the caller's transaction fails", () =>
    Effect.gen(function*() {
      const codes = yield* VerificationCodes
      const sql = yield* SqlClient.SqlClient
      const exit = yield* Effect.exit(
        sql.withTransaction(Effect.zipRight(codes.send(signInCode()), Effect.fail("the caller's next step failed")))
      )
      expect(Exit.isFailure(exit)).toBe(true)
      expect(yield* challengeRows).toBe(0)
      expect(yield* deliveredMessages).toEqual([])
      // Committed with the caller's transaction, both are there.
      yield* sql.withTransaction(codes.send(signInCode()))
      expect(yield* challengeRows).toBe(1)
      expect(yield* deliveredMessages).toHaveLength(1)
    }).pipe(Effect.provide(verificationOverFreshDatabase())))

  it.effect("no challenge is kept when its message cannot be enqueued", () =>
    Effect.gen(function*() {
      const codes = yield* VerificationCodes
      const exit = yield* Effect.exit(codes.send(signInCode()))
      expect(Exit.isFailure(exit)).toBe(true)
      expect(yield* challengeRows).toBe(0)
    }).pipe(
      Effect.provide(
        VerificationCodes.layer(testPolicy).pipe(
          Layer.provideMerge(RateLimiter.layer),
          Layer.provideMerge(
            Layer.succeed(MessageOutbox, {
              enqueue: () => Effect.fail(new SqlError({ message: "outbox unavailable" }))
            })
          ),
          Layer.provideMerge(TestDatabase.layer(verificationMigrations))
        )
      )
    ))
})
