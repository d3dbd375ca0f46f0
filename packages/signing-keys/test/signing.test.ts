import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as jose from "jose"
import { SIGNING_ALGS } from "../src/index.ts"
import { database, startSigningKeys, verifyWith } from "./fixtures.ts"

const PRIVATE_MEMBERS = ["d", "p", "q", "dp", "dq", "qi", "oth", "k", "priv"]

describe("SigningKeys signing and JWKS", () => {
  for (const alg of SIGNING_ALGS) {
    it.scoped(`a JWT signed with the active ${alg} key verifies against the published JWKS`, () =>
      Effect.gen(function*() {
        const keys = yield* startSigningKeys()
        const token = yield* keys.signJwt(alg, { sub: "c:alice", aud: "app", exp: 4_000_000_000 }, { typ: "at+jwt" })
        const { payload, protectedHeader } = yield* verifyWith(yield* keys.jwks, token)
        expect(payload.sub).toBe("c:alice")
        expect(protectedHeader.alg).toBe(alg)
        expect(protectedHeader.typ).toBe("at+jwt")
        const published = (yield* keys.jwks).keys.find((key) => key.kid === protectedHeader.kid)
        expect(published?.alg).toBe(alg)
      }).pipe(Effect.provide(database)))
  }

  it.scoped("publishes one key per alg with kid = RFC 7638 thumbprint and no private members", () =>
    Effect.gen(function*() {
      const keys = yield* startSigningKeys()
      const jwks = yield* keys.jwks
      expect(jwks.keys.map((key) => key.alg).sort()).toEqual(["EdDSA", "RS256"])
      for (const key of jwks.keys) {
        expect(key.use).toBe("sig")
        expect(key.kid).toBe(yield* Effect.promise(() => jose.calculateJwkThumbprint(key)))
        for (const member of PRIVATE_MEMBERS) expect(key).not.toHaveProperty(member)
      }
      expect(jwks.keys.find((key) => key.alg === "EdDSA")).toMatchObject({ kty: "OKP", crv: "Ed25519" })
      expect(jwks.keys.find((key) => key.alg === "RS256")).toMatchObject({ kty: "RSA", e: "AQAB" })
      expect(Buffer.from(jwks.keys.find((key) => key.alg === "RS256")!.n, "base64url")).toHaveLength(256)
    }).pipe(Effect.provide(database)))

  it.scoped("serves the JWKS pre-serialized, the same object until the next refresh", () =>
    Effect.gen(function*() {
      const keys = yield* startSigningKeys()
      const json = yield* keys.jwksJson
      expect(JSON.parse(json)).toEqual(yield* keys.jwks)
      expect(yield* keys.jwksJson).toBe(json)
      expect(yield* keys.jwks).toBe(yield* keys.jwks)
      expect(json).not.toMatch(/"(d|p|q|dp|dq|qi)"/)
    }).pipe(Effect.provide(database)))

  it.scoped("leaves typ out of the header unless asked", () =>
    Effect.gen(function*() {
      const keys = yield* startSigningKeys()
      const header = jose.decodeProtectedHeader(yield* keys.signJwt("EdDSA", { sub: "x" }))
      expect(Object.keys(header).sort()).toEqual(["alg", "kid"])
    }).pipe(Effect.provide(database)))
})
