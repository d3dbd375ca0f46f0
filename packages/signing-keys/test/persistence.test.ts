import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Scope } from "effect"
import { database, kidsOf, startSigningKeys, storedKeys, verifyWith } from "./fixtures.ts"

describe("SigningKeys persistence", () => {
  it.scoped("a new process on the same database uses the same keys", () =>
    Effect.gen(function*() {
      const first = yield* startSigningKeys()
      const token = yield* first.signJwt("RS256", { sub: "si:bot" })
      const firstKids = kidsOf(yield* first.jwks)

      const second = yield* startSigningKeys()
      expect(kidsOf(yield* second.jwks)).toEqual(firstKids)
      yield* verifyWith(yield* second.jwks, token)
      expect(yield* storedKeys).toHaveLength(2)
    }).pipe(Effect.provide(database)))

  it.scoped("keys survive the first process stopping", () =>
    Effect.gen(function*() {
      const scope = yield* Scope.make()
      const firstKids = yield* startSigningKeys().pipe(
        Effect.flatMap((keys) => keys.jwks),
        Effect.map(kidsOf),
        Scope.extend(scope)
      )
      yield* Scope.close(scope, Exit.void)
      const second = yield* startSigningKeys()
      expect(kidsOf(yield* second.jwks)).toEqual(firstKids)
    }).pipe(Effect.provide(database)))

  it.scoped("two processes starting at once on an empty database end with one key set", () =>
    Effect.gen(function*() {
      const [a, b] = yield* Effect.all([startSigningKeys(), startSigningKeys()], { concurrency: 2 })
      const stored = yield* storedKeys
      expect(stored.map((key) => key.alg).sort()).toEqual(["EdDSA", "RS256"])
      expect(kidsOf(yield* a.jwks).sort()).toEqual(stored.map((key) => key.kid).sort())
      expect(kidsOf(yield* b.jwks).sort()).toEqual(stored.map((key) => key.kid).sort())
      // Each signs with the winner's key, so a token of one verifies with the other's JWKS.
      yield* verifyWith(yield* b.jwks, yield* a.signJwt("EdDSA", { sub: "x" }))
      yield* verifyWith(yield* a.jwks, yield* b.signJwt("RS256", { sub: "x" }))
    }).pipe(Effect.provide(database)))
})
