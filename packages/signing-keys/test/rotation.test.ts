import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Schedule, TestClock, TestServices } from "effect"
import * as jose from "jose"
import { PUBLISHED_AFTER_RETIREMENT } from "../src/index.ts"
import { database, kidsOf, startSigningKeys, storedKeys, verifyWith } from "./fixtures.ts"

describe("SigningKeys rotation", () => {
  it.scoped("makes a new key per alg active at once and keeps the old ones published", () =>
    Effect.gen(function*() {
      const keys = yield* startSigningKeys()
      const oldKids = kidsOf(yield* keys.jwks)
      const oldToken = yield* keys.signJwt("EdDSA", { sub: "c:alice" })

      const rotated = yield* keys.rotate
      expect(rotated.map((key) => key.alg).sort()).toEqual(["EdDSA", "RS256"])
      for (const { kid } of rotated) expect(oldKids).not.toContain(kid)

      const newToken = yield* keys.signJwt("EdDSA", { sub: "c:alice" })
      expect(jose.decodeProtectedHeader(newToken).kid).toBe(rotated.find((key) => key.alg === "EdDSA")!.kid)
      const jwks = yield* keys.jwks
      expect(kidsOf(jwks).sort()).toEqual([...oldKids, ...rotated.map((key) => key.kid)].sort())
      yield* verifyWith(jwks, oldToken)
      yield* verifyWith(jwks, newToken)

      const stored = yield* storedKeys
      expect(stored.filter((key) => !key.retired).map((key) => key.kid).sort()).toEqual(rotated.map((key) => key.kid).sort())
      // A retired key is never used again, so its private part is not kept.
      for (const key of stored.filter((key) => key.retired)) expect(key.private_key).toBeNull()
    }).pipe(Effect.provide(database)))

  it.scoped("drops a retired key from the JWKS once the tokens it signed have expired", () =>
    Effect.gen(function*() {
      const keys = yield* startSigningKeys()
      const oldKids = kidsOf(yield* keys.jwks)
      yield* keys.rotate

      // Still published after the longest token lifetime (3600 s), within the rotation grace.
      yield* TestClock.adjust(Duration.seconds(3600))
      yield* keys.refresh
      expect(kidsOf(yield* keys.jwks)).toEqual(expect.arrayContaining(oldKids))

      yield* TestClock.adjust(Duration.subtract(PUBLISHED_AFTER_RETIREMENT, Duration.seconds(3600)))
      yield* keys.refresh
      const remaining = kidsOf(yield* keys.jwks)
      expect(remaining).toHaveLength(2)
      for (const kid of oldKids) expect(remaining).not.toContain(kid)
    }).pipe(Effect.provide(database)))

  it.scoped("another process picks up a rotation within refreshSeconds", () =>
    Effect.gen(function*() {
      const operator = yield* startSigningKeys()
      const server = yield* startSigningKeys({ refreshSeconds: 5 })
      const rotated = yield* operator.rotate
      const newEdKid = rotated.find((key) => key.alg === "EdDSA")!.kid

      expect(kidsOf(yield* server.jwks)).not.toContain(newEdKid)
      yield* TestClock.adjust(Duration.seconds(5))
      // The periodic refresh runs in a fiber of the layer; wait until it has stored its result.
      yield* TestServices.provideLive(
        Effect.repeat(server.jwks, { schedule: Schedule.spaced("10 millis"), until: (jwks) => kidsOf(jwks).includes(newEdKid) }).pipe(
          Effect.timeoutFail({ duration: "5 seconds", onTimeout: () => new Error("rotation not picked up") })
        )
      )
      expect(jose.decodeProtectedHeader(yield* server.signJwt("EdDSA", {})).kid).toBe(newEdKid)
    }).pipe(Effect.provide(database)))

  it.scoped("concurrent rotations both complete and leave one active key per alg", () =>
    Effect.gen(function*() {
      const a = yield* startSigningKeys()
      const b = yield* startSigningKeys()
      yield* Effect.all([a.rotate, b.rotate], { concurrency: 2 })
      const stored = yield* storedKeys
      expect(stored.filter((key) => !key.retired).map((key) => key.alg).sort()).toEqual(["EdDSA", "RS256"])
      expect(stored).toHaveLength(6)
    }).pipe(Effect.provide(database)))
})
