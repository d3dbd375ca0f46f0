import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { hashSecret, SCRYPT_PARAMS, verifyAgainstDummy, verifySecret } from "../src/index.ts"

describe("hashSecret / verifySecret", () => {
  it.effect("describes its algorithm and parameters, and verifies the right secret only", () =>
    Effect.gen(function*() {
      const stored = yield* hashSecret("stk-0123456789ab")
      const [algorithm, N, r, p, salt, hash] = stored.split("$")
      expect([algorithm, N, r, p]).toEqual(["scrypt", String(SCRYPT_PARAMS.N), "8", "1"])
      expect(Buffer.from(salt!, "base64url")).toHaveLength(16)
      expect(Buffer.from(hash!, "base64url")).toHaveLength(32)

      expect(yield* verifySecret("stk-0123456789ab", stored)).toBe(true)
      expect(yield* verifySecret("stk-0123456789ac", stored)).toBe(false)
      expect(yield* verifySecret("", stored)).toBe(false)
    }))

  it.effect("salts every hash", () =>
    Effect.gen(function*() {
      const [a, b] = yield* Effect.all([hashSecret("same"), hashSecret("same")], { concurrency: 2 })
      expect(a).not.toBe(b)
    }))

  it.effect("verifies with the parameters stored in the hash, not the current defaults", () =>
    Effect.gen(function*() {
      const stored = yield* hashSecret("secret")
      const [, , r, p, salt, hash] = stored.split("$")
      // A hash made with a lower N must not verify once N is rewritten: the parameters are bound.
      expect(yield* verifySecret("secret", ["scrypt", 2 ** 14, r, p, salt, hash].join("$"))).toBe(false)
    }))

  it.effect("treats a malformed stored value as a defect, not as a wrong secret", () =>
    Effect.gen(function*() {
      for (const stored of ["", "plain", "scrypt$32768$8$1$c2FsdA", "scrypt$3$8$1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA", "bcrypt$x"]) {
        const exit = yield* Effect.exit(verifySecret("secret", stored))
        expect(Exit.isFailure(exit) && !Exit.isInterrupted(exit)).toBe(true)
      }
    }))
})

describe("verifyAgainstDummy", () => {
  it.effect("returns false", () =>
    Effect.gen(function*() {
      expect(yield* verifyAgainstDummy("anything")).toBe(false)
    }))

  it.live("takes about as long as a real verification", () =>
    Effect.gen(function*() {
      const stored = yield* hashSecret("secret")
      const timeOf = (run: Effect.Effect<boolean>) =>
        Effect.gen(function*() {
          const start = performance.now()
          yield* run
          return performance.now() - start
        })
      const median = (xs: ReadonlyArray<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
      const real: Array<number> = []
      const dummy: Array<number> = []
      for (let i = 0; i < 5; i++) {
        real.push(yield* timeOf(verifySecret("wrong", stored)))
        dummy.push(yield* timeOf(verifyAgainstDummy("wrong")))
      }
      const ratio = median(dummy) / median(real)
      expect(ratio).toBeGreaterThan(0.5)
      expect(ratio).toBeLessThan(2)
    }))
})
