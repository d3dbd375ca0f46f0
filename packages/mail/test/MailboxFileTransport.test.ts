import { describe, expect, it } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { MailboxFileTransport } from "../src/MailboxFileTransport.ts"
import { MessageTransport } from "../src/MessageTransport.ts"
import type { OutgoingMessage } from "../src/OutgoingMessage.ts"
import { phoneCode, signInCode } from "./messages.ts"
import { temporaryDirectory } from "./temporaryDirectory.ts"

const sendAll = (mailbox: string, messages: ReadonlyArray<OutgoingMessage>) =>
  Effect.flatMap(MessageTransport, (transport) =>
    Effect.forEach(messages, (message) => transport.send(message), { concurrency: "unbounded", discard: true })).pipe(
      Effect.provide(MailboxFileTransport.layer(mailbox))
    )

const readLines = (mailbox: string): ReadonlyArray<unknown> =>
  fs.readFileSync(mailbox, "utf8").split("\n").filter((line) => line !== "").map((line): unknown => JSON.parse(line))

describe("MailboxFileTransport", () => {
  it.scoped("appends one JSON line per message, creating the directory, with sent_at from the Clock", () =>
    Effect.gen(function*() {
      const mailbox = path.join(yield* temporaryDirectory, "data", "accounts", "mailbox.jsonl")
      yield* TestClock.adjust("1500 millis")
      yield* sendAll(mailbox, [signInCode("ada@example.com", "402917")])
      yield* TestClock.adjust("1 second")
      yield* sendAll(mailbox, [{ ...phoneCode("+15550100"), code: null, text: "Your number was removed." }])
      const text = fs.readFileSync(mailbox, "utf8")
      expect(text.endsWith("\n")).toBe(true)
      expect(text.split("\n")[0]).toBe(
        "{\"to\":\"ada@example.com\",\"channel\":\"email\",\"subject\":\"Your sign-in code\"," +
          "\"text\":\"Your sign-in code is 402917. It expires in 10 minutes.\",\"code\":\"402917\"," +
          "\"sent_at\":\"1970-01-01T00:00:01.500Z\"}"
      )
      expect(readLines(mailbox)[1]).toEqual({
        to: "+15550100",
        channel: "sms",
        subject: "Verification code",
        text: "Your number was removed.",
        code: null,
        sent_at: "1970-01-01T00:00:02.500Z"
      })
      expect(fs.statSync(mailbox).mode & 0o777).toBe(0o600)
    }))

  it.scoped("never interleaves lines of concurrent sends, in one transport or in two", () =>
    Effect.gen(function*() {
      const mailbox = path.join(yield* temporaryDirectory, "mailbox.jsonl")
      const long = "x".repeat(64 * 1024)
      const messages = (prefix: string) =>
        Array.from({ length: 100 }, (_, i) => ({ ...signInCode(`${prefix}${i}@example.com`), text: long }))
      yield* Effect.all([sendAll(mailbox, messages("first")), sendAll(mailbox, messages("second"))], {
        concurrency: "unbounded"
      })
      const lines = readLines(mailbox)
      expect(lines).toHaveLength(200)
      expect(new Set(lines.map((line) => (line as OutgoingMessage).to)).size).toBe(200)
      expect(lines.every((line) => (line as OutgoingMessage).text === long)).toBe(true)
    }))

  it.scoped("fails with a MessageTransportError when the file cannot be written", () =>
    Effect.gen(function*() {
      const directory = yield* temporaryDirectory
      const blocker = path.join(directory, "not-a-directory")
      fs.writeFileSync(blocker, "")
      const exit = yield* Effect.exit(sendAll(path.join(blocker, "mailbox.jsonl"), [signInCode("ada@example.com")]))
      expect(exit).toMatchObject({ _tag: "Failure", cause: { _tag: "Fail", error: { _tag: "MessageTransportError" } } })
    }))
})
