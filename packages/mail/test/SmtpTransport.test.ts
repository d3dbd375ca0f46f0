import { describe, expect, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { MessageTransport } from "../src/MessageTransport.ts"
import { SmtpTransport } from "../src/SmtpTransport.ts"
import { phoneCode, signInCode } from "./messages.ts"
import { smtpServer } from "@platform/testkit"

const from = "Accounts <no-reply@accounts.test>"

describe("SmtpTransport", () => {
  it.scopedLive("delivers an email with its recipient, subject and text to a real SMTP server", () =>
    Effect.gen(function*() {
      const server = yield* smtpServer()
      const message = signInCode("ada@example.com", "402917")
      yield* Effect.flatMap(MessageTransport, (transport) => transport.send(message)).pipe(
        Effect.provide(SmtpTransport.layer({ url: Redacted.make(server.url), from }))
      )
      expect(server.received).toHaveLength(1)
      const [mail] = server.received
      expect(mail?.from).toBe("no-reply@accounts.test")
      expect(mail?.to).toEqual(["ada@example.com"])
      expect(mail?.raw).toMatch(/^Subject: Your sign-in code\r?$/m)
      expect(mail?.raw).toMatch(/^To: ada@example\.com\r?$/m)
      expect(mail?.raw).toContain("Your sign-in code is 402917. It expires in 10 minutes.")
    }))

  it.scopedLive("fails with a MessageTransportError that names the SMTP reply but not the code or text", () =>
    Effect.gen(function*() {
      const server = yield* smtpServer({ rejectRecipients: true })
      const message = signInCode("ada@example.com", "402917")
      const error = yield* Effect.flatMap(MessageTransport, (transport) => transport.send(message)).pipe(
        Effect.provide(SmtpTransport.layer({ url: Redacted.make(server.url), from })),
        Effect.flip
      )
      expect(error._tag).toBe("MessageTransportError")
      expect(error.message).toMatch(/^SMTP delivery failed \(EENVELOPE 550\): /)
      expect(error.message).not.toContain("402917")
      expect(error.message).not.toContain(message.text)
      expect(server.received).toHaveLength(0)
    }))

  it.scopedLive("fails with a MessageTransportError when no server answers, without showing the password", () =>
    Effect.gen(function*() {
      const server = yield* smtpServer()
      const closedPort = server.url.replace("smtp://", "smtp://mailer:hunter2secret@").replace(/:\d+$/, ":1")
      const error = yield* Effect.flatMap(MessageTransport, (transport) => transport.send(signInCode("ada@example.com"))).pipe(
        Effect.provide(SmtpTransport.layer({ url: Redacted.make(closedPort), from })),
        Effect.flip
      )
      expect(error._tag).toBe("MessageTransportError")
      expect(error.message).toMatch(/^SMTP delivery failed \(ESOCKET\): connect ECONNREFUSED/)
      expect(error.message).not.toContain("hunter2secret")
    }))

  it.scopedLive("refuses an SMS as a defect: it sends email only", () =>
    Effect.gen(function*() {
      const server = yield* smtpServer()
      const exit = yield* Effect.flatMap(MessageTransport, (transport) => transport.send(phoneCode("+15550100"))).pipe(
        Effect.provide(SmtpTransport.layer({ url: Redacted.make(server.url), from })),
        Effect.exit
      )
      expect(exit).toMatchObject({ _tag: "Failure", cause: { _tag: "Die" } })
      expect(server.received).toHaveLength(0)
    }))
})
