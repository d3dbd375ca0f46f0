import { describe, expect, it } from "@effect/vitest"
import { makeSecretsAtRest } from "@platform/crypto"
import { Effect, Option, Redacted } from "effect"
import { randomBytes } from "node:crypto"
import { sealedAnswers } from "../src/answerSealing.ts"

const answer = new TextEncoder().encode(JSON.stringify({ refresh_token: "sar_fresh", access_token: "eyJ.secret" }))

describe("stored answers at rest", () => {
  it.effect("with a key-encryption key, the stored bytes hold no token and open to the answer byte for byte", () =>
    Effect.gen(function*() {
      const secrets = yield* makeSecretsAtRest<"idempotent_answer">(Option.some(Redacted.make(randomBytes(32).toString("base64"))))
      const sealing = sealedAnswers(secrets, "idempotent_answer")
      const stored = sealing.seal(answer)
      expect(Buffer.from(stored).toString("utf8")).not.toContain("sar_fresh")
      expect(Buffer.from(stored).toString("utf8")).toMatch(/^enc\.v1\./)
      expect(yield* sealing.open(stored)).toEqual(Buffer.from(answer))
    }))

  it.effect("an answer sealed under another key does not open (the replay dies rather than answering garbage)", () =>
    Effect.gen(function*() {
      const key = () => Option.some(Redacted.make(randomBytes(32).toString("base64")))
      const stored = sealedAnswers(yield* makeSecretsAtRest<"idempotent_answer">(key()), "idempotent_answer").seal(answer)
      const other = sealedAnswers(yield* makeSecretsAtRest<"idempotent_answer">(key()), "idempotent_answer")
      expect((yield* Effect.exit(other.open(stored)))._tag).toBe("Failure")
    }))
})
