import { expect, layer } from "@effect/vitest"
import { TestDatabase } from "@platform/database"
import { MessageOutbox } from "@platform/mail"
import { RateLimiter } from "@platform/rate-limit"
import { Clock, Duration, Effect, Layer, TestClock } from "effect"
import { CodeChallenges, codeChallengesWith } from "../src/challenges/CodeChallenges.ts"
import { iamMigrations } from "../src/migrations.ts"
import { DevelopmentPhoneVerifier } from "../src/phone-verification/DevelopmentPhoneVerifier.ts"
import { deliveredOnDemand, latestCodeTo, wrongCodeFor } from "./support/codes.ts"

const ChallengesTest = codeChallengesWith(DevelopmentPhoneVerifier).pipe(
  Layer.provideMerge(Layer.mergeAll(RateLimiter.layer, MessageOutbox.layer, deliveredOnDemand)),
  Layer.provideMerge(TestDatabase.layer(iamMigrations))
)

/** Each test its own subject, addresses and network: windows and streaks are shared by the file's database. */
const person = (name: string) => ({
  subject: `login:${name}`,
  email: `${name}@example.com`,
  phone: `+4477009${String(name.length).padStart(2, "0")}${name.charCodeAt(0)}`,
  clientAddress: `198.51.100.${name.charCodeAt(0) % 250}`
})
type Person = ReturnType<typeof person>

const open = (who: Person, channels: { readonly email?: boolean; readonly phone?: boolean } = { email: true }) =>
  Effect.flatMap(CodeChallenges, (challenges) =>
    challenges.open({
      purpose: "login",
      subject: who.subject,
      email: channels.email === true ? who.email : undefined,
      phone: channels.phone === true ? who.phone : undefined,
      clientAddress: who.clientAddress,
      message: (code) => ({ subject: "Your code", text: `Your code is ${code}.` })
    }))

const answer = (who: Person, sessionId: string, code: string) =>
  Effect.flatMap(CodeChallenges, (challenges) =>
    challenges.answer(
      { sessionId, purpose: "login", code, clientAddress: who.clientAddress },
      (challenge) => Effect.succeed(`granted ${challenge.id}`)
    ))

/** The test clock is the file's: times are told from where it stands when a test starts. */
const inSeconds = (startMillis: number, seconds: number) => new Date(startMillis + seconds * 1000).toISOString()

const wrongTimes = (who: Person, sessionId: string, code: string, times: number) =>
  Effect.forEach(Array.from({ length: times }), () => Effect.flip(answer(who, sessionId, wrongCodeFor(code))))

layer(ChallengesTest)("code challenges", (it) => {
  it.effect("ten wrong codes start a 60-second cooldown; a replacement code keeps the count and the cooldown; then ten attempts anew", () =>
    Effect.gen(function*() {
      const ada = person("ada")
      const start = yield* Clock.currentTimeMillis
      const first = yield* open(ada)
      const firstCode = yield* latestCodeTo(ada.email)
      const nine = yield* wrongTimes(ada, first.session_id, firstCode, 9)
      expect(nine.map((error) => error._tag === "InvalidCode" ? error.details?.remaining_attempts : error._tag)).toEqual(
        [9, 8, 7, 6, 5, 4, 3, 2, 1]
      )

      const second = yield* open(ada)
      const secondCode = yield* latestCodeTo(ada.email)
      const replaced = yield* Effect.flip(answer(ada, first.session_id, firstCode))
      expect(replaced).toMatchObject({ code: "challenge_not_found" })
      expect(replaced.message).toContain("replaced")
      const tenth = yield* Effect.flip(answer(ada, second.session_id, wrongCodeFor(secondCode)))
      expect(tenth).toMatchObject({ code: "invalid_code", details: { remaining_attempts: 0, locked_until: inSeconds(start, 60) } })
      expect(yield* Effect.flip(answer(ada, second.session_id, secondCode))).toMatchObject({
        code: "verification_locked",
        details: { locked_until: inSeconds(start, 60), retry_after_seconds: 60 }
      })

      yield* TestClock.adjust(Duration.seconds(30))
      const third = yield* open(ada)
      const thirdCode = yield* latestCodeTo(ada.email)
      expect(yield* Effect.flip(answer(ada, third.session_id, thirdCode))).toMatchObject({
        code: "verification_locked",
        details: { retry_after_seconds: 30 }
      })

      yield* TestClock.adjust(Duration.seconds(30))
      expect(yield* Effect.flip(answer(ada, third.session_id, wrongCodeFor(thirdCode)))).toMatchObject({
        code: "invalid_code",
        details: { remaining_attempts: 9 }
      })
      expect(yield* answer(ada, third.session_id, thirdCode)).toBe(`granted ${third.session_id}`)
      expect(yield* Effect.flip(answer(ada, third.session_id, thirdCode))).toMatchObject({ code: "code_already_used" })
    }))

  it.effect("a cooldown never extends the expiry: a code locked out near its end expires on time", () =>
    Effect.gen(function*() {
      const bo = person("bo")
      const start = yield* Clock.currentTimeMillis
      const challenge = yield* open(bo)
      expect(challenge.expires_at).toBe(inSeconds(start, 600))
      const code = yield* latestCodeTo(bo.email)
      yield* TestClock.adjust(Duration.seconds(570))
      const last = (yield* wrongTimes(bo, challenge.session_id, code, 10)).at(-1)
      expect(last).toMatchObject({ code: "invalid_code", details: { locked_until: inSeconds(start, 630) } })
      yield* TestClock.adjust(Duration.seconds(60))
      expect(yield* Effect.flip(answer(bo, challenge.session_id, code))).toMatchObject({ code: "code_expired", status: 410 })
    }))

  it.effect("a challenge sent to both channels takes either code", () =>
    Effect.gen(function*() {
      const cy = person("cy")
      const both = yield* open(cy, { email: true, phone: true })
      expect(both.channels).toEqual([
        { channel: "email", destination: "c***@example.com" },
        { channel: "phone", destination: expect.stringMatching(/^\+44\*+\d{3}$/) }
      ])
      expect(yield* answer(cy, both.session_id, yield* latestCodeTo(cy.phone))).toBe(`granted ${both.session_id}`)

      const again = yield* open(cy, { email: true, phone: true })
      expect(yield* answer(cy, again.session_id, yield* latestCodeTo(cy.email))).toBe(`granted ${again.session_id}`)
    }))

  it.effect("codes last 10 minutes", () =>
    Effect.gen(function*() {
      const di = person("di")
      const challenge = yield* open(di, { phone: true })
      const code = yield* latestCodeTo(di.phone)
      yield* TestClock.adjust(Duration.minutes(10))
      expect(yield* Effect.flip(answer(di, challenge.session_id, code))).toMatchObject({ code: "code_expired" })
    }))

  it.effect("the eleventh code to one address in 10 minutes is refused (429 rate_limited), whatever the subject", () =>
    Effect.gen(function*() {
      const ed = person("ed")
      yield* Effect.forEach(Array.from({ length: 10 }, (_, i) => i), (i) => open({ ...ed, subject: `login:ed${i}` }))
      expect(yield* Effect.flip(open(ed))).toMatchObject({ code: "rate_limited", status: 429 })
    }))
})
