import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Exit, Layer } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { MessageTransport } from "../src/MessageTransport.ts"
import { transportFromConfig } from "../src/transportFromConfig.ts"
import { phoneCode, signInCode } from "./messages.ts"
import { smtpServer } from "@platform/testkit"
import { temporaryDirectory } from "./temporaryDirectory.ts"

const withEnvironment = (variables: Record<string, string>) =>
  Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(variables))))

const sendBoth = (dataDir: string, variables: Record<string, string>) =>
  Effect.flatMap(MessageTransport, (transport) =>
    Effect.all([
      Effect.exit(transport.send(signInCode("ada@example.com"))),
      Effect.exit(transport.send(phoneCode("+15550100")))
    ])).pipe(Effect.provide(transportFromConfig("ACCOUNTS_", dataDir).pipe(Layer.provide(withEnvironment(variables)))))

const mailboxChannels = (dataDir: string): ReadonlyArray<string> => {
  const mailbox = path.join(dataDir, "mailbox.jsonl")
  return fs.existsSync(mailbox)
    ? fs.readFileSync(mailbox, "utf8").trim().split("\n").map((line) => String(JSON.parse(line).channel))
    : []
}

describe("transportFromConfig", () => {
  it.scopedLive("without SMTP, writes email and SMS to <dataDir>/mailbox.jsonl", () =>
    Effect.gen(function*() {
      const dataDir = path.join(yield* temporaryDirectory, "accounts")
      const [email, sms] = yield* sendBoth(dataDir, {})
      expect([email._tag, sms._tag]).toEqual(["Success", "Success"])
      expect(mailboxChannels(dataDir)).toEqual(["email", "sms"])
    }))

  it.scopedLive("with SMTP, sends email through it from MAIL_FROM and SMS to the mailbox in development", () =>
    Effect.gen(function*() {
      const dataDir = yield* temporaryDirectory
      const server = yield* smtpServer()
      const [email, sms] = yield* sendBoth(dataDir, {
        ACCOUNTS_SMTP_URL: server.url,
        ACCOUNTS_MAIL_FROM: "Accounts <accounts@example.com>"
      })
      expect([email._tag, sms._tag]).toEqual(["Success", "Success"])
      expect(server.received.map((mail) => [mail.from, mail.to])).toEqual([["accounts@example.com", ["ada@example.com"]]])
      expect(mailboxChannels(dataDir)).toEqual(["sms"])
    }))

  it.scopedLive("in production, sends email through SMTP and fails SMS: there is no SMS provider", () =>
    Effect.gen(function*() {
      const dataDir = yield* temporaryDirectory
      const server = yield* smtpServer()
      const [email, sms] = yield* sendBoth(dataDir, { ACCOUNTS_SMTP_URL: server.url, ACCOUNTS_ENVIRONMENT: "production" })
      expect(email._tag).toBe("Success")
      expect(sms).toMatchObject({
        _tag: "Failure",
        cause: { error: { _tag: "MessageTransportError", message: "no SMS provider is configured" } }
      })
      expect(server.received).toHaveLength(1)
      expect(mailboxChannels(dataDir)).toEqual([])
    }))

  it.scopedLive("refuses to start in production without SMTP, naming the variable", () =>
    Effect.gen(function*() {
      const exit = yield* Effect.exit(sendBoth(yield* temporaryDirectory, { ACCOUNTS_ENVIRONMENT: "production" }))
      expect(Exit.isFailure(exit) && String(exit.cause)).toContain("ACCOUNTS_SMTP_URL is required")
    }))

  it.scopedLive("refuses a malformed SMTP URL without echoing it", () =>
    Effect.gen(function*() {
      const exit = yield* Effect.exit(
        sendBoth(yield* temporaryDirectory, { ACCOUNTS_SMTP_URL: "http://mailer:hunter2secret@mail.example.com" })
      )
      const reason = Exit.isFailure(exit) ? String(exit.cause) : ""
      expect(reason).toContain("ACCOUNTS_SMTP_URL")
      expect(reason).toContain("must be a URL such as smtp://")
      expect(reason).not.toContain("hunter2secret")
    }))
})
