import { expect, layer } from "@effect/vitest"
import { TestDatabase } from "@platform/database"
import { MessageOutbox } from "@platform/mail"
import { type ReceivedRequest, webhookReceiver } from "@platform/testkit"
import { Duration, Effect, Layer, Redacted, TestClock } from "effect"
import { iamMigrations } from "../src/migrations.ts"
import { DevelopmentPhoneVerifier } from "../src/phone-verification/DevelopmentPhoneVerifier.ts"
import { PhoneVerifier } from "../src/phone-verification/PhoneVerifier.ts"
import { RestPhoneVerifier } from "../src/phone-verification/RestPhoneVerifier.ts"
import { deliveredOnDemand, latestCodeTo, wrongCodeFor } from "./support/codes.ts"

const PHONE = "+14155550100"

/** A fake Twilio Verify: one pending code per number, `approved` for it, `pending` for another, 404 without one. */
const fakeProvider = Effect.gen(function*() {
  const receiver = yield* webhookReceiver
  const pending = new Map<string, string>()
  receiver.answerWith((request: ReceivedRequest) => {
    const form = new URLSearchParams(request.rawBody.toString("utf8"))
    const to = form.get("To") ?? ""
    const json = (status: number, body: unknown) => ({
      status,
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body)
    })
    if (request.path === "/v2/Services/VA123/Verifications") {
      pending.set(to, "246810")
      return json(201, { sid: "VE1", to, channel: form.get("Channel"), status: "pending" })
    }
    if (request.path === "/v2/Services/VA123/VerificationCheck") {
      const code = pending.get(to)
      if (code === undefined) return json(404, { code: 20404, message: "not found" })
      if (form.get("Code") !== code) return json(200, { to, status: "pending", valid: false })
      pending.delete(to)
      return json(200, { to, status: "approved", valid: true })
    }
    return json(500, {})
  })
  return receiver
})

const restVerifier = (url: string) =>
  PhoneVerifier.pipe(
    Effect.provide(RestPhoneVerifier({ url, serviceSid: "VA123", accountSid: "AC42", token: Redacted.make("s3cret") }))
  )

layer(
  DevelopmentPhoneVerifier.pipe(
    Layer.provideMerge(Layer.mergeAll(MessageOutbox.layer, deliveredOnDemand)),
    Layer.provideMerge(TestDatabase.layer(iamMigrations))
  )
)("phone verification providers", (it) => {
  it.scoped("the REST provider starts with To and Channel=sms under HTTP Basic, and reads approved, pending and 404", () =>
    Effect.gen(function*() {
      const provider = yield* fakeProvider
      const verifier = yield* restVerifier(provider.url)
      yield* verifier.start(PHONE)
      const [started] = provider.received()
      expect(started).toMatchObject({ method: "POST", path: "/v2/Services/VA123/Verifications" })
      expect(started?.headers["authorization"]).toBe(`Basic ${Buffer.from("AC42:s3cret").toString("base64")}`)
      expect(started?.headers["content-type"]).toBe("application/x-www-form-urlencoded")
      expect(Object.fromEntries(new URLSearchParams(started?.rawBody.toString("utf8")))).toEqual({ To: PHONE, Channel: "sms" })

      expect(yield* verifier.check(PHONE, "135790")).toBe(false)
      expect(yield* verifier.check(PHONE, "246810")).toBe(true)
      // Approved once: the provider has no pending verification left (404), which is no right code.
      expect(yield* verifier.check(PHONE, "246810")).toBe(false)
      const checks = provider.received().filter((request) => request.path.endsWith("/VerificationCheck"))
      expect(Object.fromEntries(new URLSearchParams(checks[0]?.rawBody.toString("utf8")))).toEqual({ To: PHONE, Code: "135790" })
    }))

  it.scoped("a provider that fails or cannot be reached is 503 phone_verification_unavailable", () =>
    Effect.gen(function*() {
      const provider = yield* webhookReceiver
      provider.answerWith(() => ({ status: 500 }))
      const verifier = yield* restVerifier(provider.url)
      expect(yield* Effect.flip(verifier.start(PHONE))).toMatchObject({ code: "phone_verification_unavailable", status: 503 })
      expect(yield* Effect.flip(verifier.check(PHONE, "246810"))).toMatchObject({ code: "phone_verification_unavailable" })
      const nobody = yield* restVerifier("http://127.0.0.1:1")
      expect(yield* Effect.flip(nobody.start(PHONE))).toMatchObject({ code: "phone_verification_unavailable" })
    }))

  it.effect("the development provider writes its code to the mailbox as an SMS; the code works once, for 10 minutes", () =>
    Effect.gen(function*() {
      const verifier = yield* PhoneVerifier
      yield* verifier.start(PHONE)
      const code = yield* latestCodeTo(PHONE)
      expect(code).toMatch(/^[0-9]{6}$/)
      expect(yield* verifier.check(PHONE, wrongCodeFor(code))).toBe(false)
      expect(yield* verifier.check(PHONE, code)).toBe(true)
      expect(yield* verifier.check(PHONE, code)).toBe(false)

      yield* verifier.start(PHONE)
      const later = yield* latestCodeTo(PHONE)
      yield* TestClock.adjust(Duration.minutes(10))
      expect(yield* verifier.check(PHONE, later)).toBe(false)
    }))
})
