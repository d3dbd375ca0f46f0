import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { InMemoryTransport } from "../src/InMemoryTransport.ts"
import { MessageTransport } from "../src/MessageTransport.ts"
import { signInCode } from "./messages.ts"

describe("InMemoryTransport", () => {
  it.effect("keeps what was sent, and fails the next N sends when told to", () =>
    Effect.gen(function*() {
      const transport = yield* MessageTransport
      yield* transport.send(signInCode("ada@example.com", "111111"))
      yield* InMemoryTransport.failNext(2)
      const failed = yield* Effect.exit(transport.send(signInCode("bob@example.com")))
      expect(failed).toMatchObject({ _tag: "Failure", cause: { error: { _tag: "MessageTransportError" } } })
      expect((yield* Effect.exit(transport.send(signInCode("bob@example.com"))))._tag).toBe("Failure")
      yield* transport.send(signInCode("bob@example.com", "222222"))
      expect((yield* InMemoryTransport.sent).map((message) => message.code)).toEqual(["111111", "222222"])
      expect(yield* InMemoryTransport.attempts).toBe(4)
    }).pipe(Effect.provide(InMemoryTransport.layer)))
})
