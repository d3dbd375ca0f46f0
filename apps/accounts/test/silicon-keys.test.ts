import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { AccountsTest } from "./support/AccountsUnderTest.ts"
import { createCarbon } from "./support/carbons.ts"
import { callWithBearer } from "./support/bearer.ts"
import { signInDirectly } from "./support/signIn.ts"
import { createSilicon, newSiliconKey } from "./support/silicons.ts"

const call = callWithBearer

const signedInSilicon = Effect.gen(function*() {
  const created = yield* createSilicon()
  const { accessToken } = yield* signInDirectly(created.silicon.uuid)
  return { ...created, token: accessToken }
})

layer(AccountsTest(), { excludeTestServices: true })("Silicon public keys", (it) => {
  it.effect("a Silicon registers a key named by its thumbprint, lists it, and cannot register it twice", () =>
    Effect.gen(function*() {
      const { token } = yield* signedInSilicon
      const key = yield* newSiliconKey
      const added = yield* call("POST", "/v1/me/keys", token, {
        name: "laptop",
        public_key: { ...key.jwk, kid: "mine", alg: "EdDSA", use: "sig" }
      })
      expect(added.status).toBe(201)
      expect(added.body).toEqual({
        id: key.kid,
        name: "laptop",
        public_key: { kty: "OKP", crv: "Ed25519", x: key.jwk.x },
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
      })
      const listed = yield* call("GET", "/v1/me/keys", token)
      expect(listed.body).toEqual({ items: [added.body], next_cursor: null })
      const again = yield* call("POST", "/v1/me/keys", token, { name: "again", public_key: key.jwk })
      expect(again.status).toBe(409)
      expect(again.body.error.code).toBe("key_exists")
    }))

  it.effect("a private key, another key type or a malformed x is 422 naming the field", () =>
    Effect.gen(function*() {
      const { token } = yield* signedInSilicon
      const { jwk } = yield* newSiliconKey
      const refused = (body: unknown) =>
        Effect.map(call("POST", "/v1/me/keys", token, body), (answer) => {
          expect(answer.status).toBe(422)
          expect(answer.body.error.code).toBe("validation_failed")
          return Object.keys(answer.body.error.details.fields)
        })
      expect(yield* refused({ name: "k", public_key: { ...jwk, d: "c2VjcmV0" } })).toEqual(["public_key.d"])
      expect(yield* refused({ name: "k", public_key: { ...jwk, kty: "RSA" } })).toEqual(["public_key.kty"])
      expect(yield* refused({ name: "k", public_key: { ...jwk, crv: "X25519" } })).toEqual(["public_key.crv"])
      expect(yield* refused({ name: "k", public_key: { ...jwk, x: jwk.x!.slice(0, 42) } })).toEqual(["public_key.x"])
      expect(yield* refused({ name: "k", public_key: { ...jwk, x: `${jwk.x!.slice(0, 42)}+` } })).toEqual(["public_key.x"])
      // The same 32 bytes with the unused low bits of the last character set: not the canonical text.
      const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
      const nonCanonical = `${jwk.x!.slice(0, 42)}${alphabet[alphabet.indexOf(jwk.x!.at(-1)!) + 1]}`
      expect(yield* refused({ name: "k", public_key: { ...jwk, x: nonCanonical } })).toEqual(["public_key.x"])
      expect(yield* refused({ name: "", public_key: jwk })).toEqual(["name"])
      expect(yield* refused({ name: "x".repeat(101), public_key: jwk })).toEqual(["name"])
      expect(yield* refused({ name: "k", public_key: jwk, extra: true })).toEqual(["extra"])
      expect(yield* refused({ name: "k" })).toEqual(["public_key"])
      const listed = yield* call("GET", "/v1/me/keys", token)
      expect(listed.body.items).toEqual([])
    }))

  it.effect("ten live keys at most; deleting one makes room, and an unknown key is 404", () =>
    Effect.gen(function*() {
      const { token } = yield* signedInSilicon
      const ids: Array<string> = []
      for (let i = 0; i < 10; i++) {
        const added = yield* call("POST", "/v1/me/keys", token, { name: `k${i}`, public_key: (yield* newSiliconKey).jwk })
        expect(added.status).toBe(201)
        ids.push(added.body.id)
      }
      const eleventh = (yield* newSiliconKey).jwk
      const full = yield* call("POST", "/v1/me/keys", token, { name: "k10", public_key: eleventh })
      expect(full.status).toBe(409)
      expect(full.body.error).toMatchObject({ code: "too_many_keys", details: { limit: 10 } })
      const removed = yield* call("DELETE", `/v1/me/keys/${ids[3]}`, token)
      expect(removed.status).toBe(204)
      const twice = yield* call("DELETE", `/v1/me/keys/${ids[3]}`, token)
      expect(twice.status).toBe(404)
      expect(twice.body.error.code).toBe("key_not_found")
      const unknown = yield* call("DELETE", `/v1/me/keys/${(yield* newSiliconKey).kid}`, token)
      expect(unknown.body.error.code).toBe("key_not_found")
      const malformed = yield* call("DELETE", "/v1/me/keys/nope", token)
      expect(malformed.status).toBe(400)
      expect((yield* call("POST", "/v1/me/keys", token, { name: "k10", public_key: eleventh })).status).toBe(201)
      const listed = yield* call("GET", "/v1/me/keys", token)
      expect(listed.body.items).toHaveLength(10)
      expect(listed.body.items.map((key: { id: string }) => key.id)).not.toContain(ids[3])
    }))

  it.effect("concurrent registrations never pass ten live keys", () =>
    Effect.gen(function*() {
      const { token } = yield* signedInSilicon
      const keys = yield* Effect.all(Array.from({ length: 16 }, () => newSiliconKey))
      const answers = yield* Effect.all(
        keys.map((key, i) => call("POST", "/v1/me/keys", token, { name: `k${i}`, public_key: key.jwk })),
        { concurrency: "unbounded" }
      )
      const statuses = answers.map((answer) => answer.status)
      expect(statuses.filter((status) => status === 201)).toHaveLength(10)
      expect(statuses.filter((status) => status === 409)).toHaveLength(6)
      expect((yield* call("GET", "/v1/me/keys", token)).body.items).toHaveLength(10)
    }))

  it.effect("a revoked key can be registered again, and two Silicons may hold one key", () =>
    Effect.gen(function*() {
      const first = yield* signedInSilicon
      const second = yield* signedInSilicon
      const key = yield* newSiliconKey
      expect((yield* call("POST", "/v1/me/keys", first.token, { name: "shared", public_key: key.jwk })).status).toBe(201)
      expect((yield* call("POST", "/v1/me/keys", second.token, { name: "shared", public_key: key.jwk })).status).toBe(201)
      expect((yield* call("DELETE", `/v1/me/keys/${key.kid}`, first.token)).status).toBe(204)
      expect((yield* call("GET", "/v1/me/keys", second.token)).body.items).toHaveLength(1)
      const again = yield* call("POST", "/v1/me/keys", first.token, { name: "back", public_key: key.jwk })
      expect(again.status).toBe(201)
      expect(again.body).toMatchObject({ id: key.kid, name: "back" })
    }))

  it.effect("the custodian manages the keys of a Silicon in its custody; nobody else sees them", () =>
    Effect.gen(function*() {
      const { silicon, custodian, token: siliconToken } = yield* signedInSilicon
      const { accessToken: custodianToken } = yield* signInDirectly(custodian.uuid)
      const { accessToken: strangerToken } = yield* signInDirectly((yield* createCarbon()).uuid)
      const path = `/v1/me/silicons/${silicon.uuid}/keys`
      const key = yield* newSiliconKey
      const added = yield* call("POST", path, custodianToken, { name: "from custodian", public_key: key.jwk })
      expect(added.status).toBe(201)
      expect((yield* call("GET", "/v1/me/keys", siliconToken)).body.items).toEqual([added.body])
      expect((yield* call("GET", path, custodianToken)).body.items).toEqual([added.body])
      for (const answer of [
        yield* call("GET", path, strangerToken),
        yield* call("POST", path, strangerToken, { name: "x", public_key: (yield* newSiliconKey).jwk }),
        yield* call("DELETE", `${path}/${key.kid}`, strangerToken),
        yield* call("GET", "/v1/me/silicons/zzzz/keys", custodianToken)
      ]) {
        expect(answer.status).toBe(404)
        expect(answer.body.error.code).toBe("silicon_not_found")
      }
      const onlySilicon = yield* call("GET", "/v1/me/keys", custodianToken)
      expect(onlySilicon.status).toBe(403)
      expect(onlySilicon.body.error.code).toBe("silicon_only")
      const onlyCarbon = yield* call("GET", path, siliconToken)
      expect(onlyCarbon.status).toBe(403)
      expect(onlyCarbon.body.error.code).toBe("carbon_only")
      expect((yield* call("DELETE", `${path}/${key.kid}`, custodianToken)).status).toBe(204)
      expect((yield* call("GET", "/v1/me/keys", siliconToken)).body.items).toEqual([])
    }))
})
