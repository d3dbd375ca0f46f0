import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { TestDatabase } from "@platform/database"
import { randomHex } from "@platform/crypto"
import { Context, Effect, Layer } from "effect"
import * as jose from "jose"
import { accountsMigrations } from "../src/migrations.ts"
import { claimJti, sweepAssertionJtis } from "../src/silicons/assertions/assertionJtis.ts"
import { AccountsTest, AccountsUnderTest, accountsServerOn } from "./support/AccountsUnderTest.ts"
import { fetchAnswer } from "./support/http.ts"
import { signInDirectly } from "./support/signIn.ts"
import { createSilicon, newSiliconKey } from "./support/silicons.ts"

type PrivateKey = Awaited<ReturnType<typeof jose.generateKeyPair>>["privateKey"]

const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer"

const tokenRequest = (url: string, parameters: Record<string, string>) =>
  Effect.promise(() =>
    fetchAnswer(`${url}/v1/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: JWT_BEARER, client_id: "accounts", ...parameters }).toString()
    })
  )

/** Signs the claims as given; a claim set to undefined is left out (JSON drops it). */
const sign = (privateKey: PrivateKey, claims: Record<string, unknown>, header: Partial<jose.JWTHeaderParameters> = {}) =>
  Effect.promise(() =>
    new jose.SignJWT(claims as jose.JWTPayload).setProtectedHeader({ alg: "EdDSA", ...header }).sign(privateKey)
  )

/** A Silicon with one registered key, and what a good assertion of it says. */
const siliconWithKey = Effect.gen(function*() {
  const { url } = yield* AccountsUnderTest
  const created = yield* createSilicon()
  const { accessToken } = yield* signInDirectly(created.silicon.uuid)
  const key = yield* newSiliconKey
  const added = yield* Effect.promise(() =>
    fetchAnswer(`${url}/v1/me/keys`, {
      method: "POST",
      headers: { authorization: `Bearer ${accessToken}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "test key", public_key: key.jwk })
    })
  )
  expect(added.status).toBe(201)
  const iat = Math.floor(Date.now() / 1000)
  const claims = (): jose.JWTPayload => ({
    iss: created.id,
    sub: created.id,
    aud: `${url}/v1/oauth/token`,
    iat,
    exp: iat + 300,
    jti: `jti-${randomHex(8)}`
  })
  return { ...created, key, accessToken, url, claims }
})

const refusedWithInvalidGrant = (answer: { status: number; body: any }) => {
  expect(answer.status).toBe(400)
  expect(answer.body.error).toBe("invalid_grant")
  return answer.body.error_description as string
}

layer(AccountsTest(), { excludeTestServices: true })("Key sign-in assertions at the token endpoint", (it) => {
  it.effect("a signed assertion, with or without kid, by si: id or uuid, gives first-party tokens", () =>
    Effect.gen(function*() {
      const { silicon, key, url, claims } = yield* siliconWithKey
      const withKid = yield* tokenRequest(url, {
        assertion: yield* sign(key.privateKey, claims(), { kid: key.kid }),
        client_label: "x".repeat(150)
      })
      expect(withKid.status).toBe(200)
      expect(withKid.headers.get("cache-control")).toBe("no-store")
      expect(withKid.body).toMatchObject({ token_type: "Bearer", account: { uuid: silicon.uuid, kind: "silicon" } })
      const session = yield* Effect.promise(() =>
        fetchAnswer(`${url}/v1/session`, { headers: { authorization: `Bearer ${withKid.body.access_token}` } })
      )
      expect(session.body).toMatchObject({ method: "assertion", client_label: "x".repeat(100) })
      const byUuid = { ...claims(), iss: silicon.uuid, sub: silicon.uuid }
      const withoutKid = yield* tokenRequest(url, { assertion: yield* sign(key.privateKey, byUuid) })
      expect(withoutKid.status).toBe(200)
      const noIat = { ...claims(), iat: undefined, exp: Math.floor(Date.now() / 1000) + 250 }
      expect((yield* tokenRequest(url, { assertion: yield* sign(key.privateKey, noIat) })).status).toBe(200)
      // A Silicon's clock may run up to 30 seconds ahead of ours.
      const ahead = { ...claims(), iat: Math.floor(Date.now() / 1000) + 20, exp: Math.floor(Date.now() / 1000) + 200 }
      expect((yield* tokenRequest(url, { assertion: yield* sign(key.privateKey, ahead) })).status).toBe(200)
    }))

  it.effect("every rule of the assertion is enforced: each breach is invalid_grant", () =>
    Effect.gen(function*() {
      const { key, url, claims, accessToken } = yield* siliconWithKey
      const now = Math.floor(Date.now() / 1000)
      const other = yield* newSiliconKey
      const notSigned = /not signed by a live key/
      const refusals: Array<[string, Effect.Effect<string>, RegExp]> = [
        ["wrong aud", sign(key.privateKey, { ...claims(), aud: "https://elsewhere.example/v1/oauth/token" }), /aud/],
        ["exp too far after iat", sign(key.privateKey, { ...claims(), iat: now, exp: now + 301 }), /after iat/],
        ["exp too far without iat", sign(key.privateKey, { ...claims(), iat: undefined, exp: now + 330 }), /Without iat/],
        ["iat in the future", sign(key.privateKey, { ...claims(), iat: now + 120, exp: now + 300 }), /iat is in the future/],
        ["expired", sign(key.privateKey, { ...claims(), iat: now - 400, exp: now - 100 }), /expired/],
        ["no exp", sign(key.privateKey, { ...claims(), exp: undefined }), /exp is required/],
        ["missing jti", sign(key.privateKey, { ...claims(), jti: undefined }), /jti is required/],
        ["empty jti", sign(key.privateKey, { ...claims(), jti: "" }), /jti is required/],
        ["jti too long", sign(key.privateKey, { ...claims(), jti: "j".repeat(201) }), /jti is required/],
        ["iss differs from sub", sign(key.privateKey, { ...claims(), sub: "si:someone-else" }), /iss and sub/],
        ["no sub", sign(key.privateKey, { ...claims(), sub: undefined }), /iss and sub/],
        ["unknown kid", sign(key.privateKey, claims(), { kid: other.kid }), notSigned],
        ["unregistered key", sign(other.privateKey, claims()), notSigned],
        ["unknown Silicon", sign(key.privateKey, { ...claims(), iss: "si:nobody-here", sub: "si:nobody-here" }), notSigned],
        ["not a JWT", Effect.succeed("not-a-jwt"), /not a signed JWT/]
      ]
      for (const [breach, assertion, reason] of refusals) {
        const answer = yield* tokenRequest(url, { assertion: yield* assertion })
        expect(answer.status, breach).toBe(400)
        expect(answer.body.error, breach).toBe("invalid_grant")
        expect(answer.body.error_description, breach).toMatch(reason)
      }
      const { privateKey: es256 } = yield* Effect.promise(() => jose.generateKeyPair("ES256"))
      const wrongAlg = yield* Effect.promise(() =>
        new jose.SignJWT(claims()).setProtectedHeader({ alg: "ES256", kid: key.kid }).sign(es256)
      )
      expect(refusedWithInvalidGrant(yield* tokenRequest(url, { assertion: wrongAlg }))).toMatch(/EdDSA/)
      const missing = yield* tokenRequest(url, {})
      expect(missing.body.error).toBe("invalid_request")

      // The key is revoked: what it signs is refused from then on, with or without kid.
      const revoke = yield* Effect.promise(() =>
        fetchAnswer(`${url}/v1/me/keys/${key.kid}`, { method: "DELETE", headers: { authorization: `Bearer ${accessToken}` } })
      )
      expect(revoke.status).toBe(204)
      const revokedWithoutKid = yield* tokenRequest(url, { assertion: yield* sign(key.privateKey, claims()) })
      expect(refusedWithInvalidGrant(revokedWithoutKid)).toMatch(notSigned)
      const revokedWithKid = yield* tokenRequest(url, { assertion: yield* sign(key.privateKey, claims(), { kid: key.kid }) })
      expect(refusedWithInvalidGrant(revokedWithKid)).toMatch(notSigned)
    }))

  it.effect("an assertion is used once: its replay is refused", () =>
    Effect.gen(function*() {
      const { key, url, claims } = yield* siliconWithKey
      const assertion = yield* sign(key.privateKey, claims())
      expect((yield* tokenRequest(url, { assertion })).status).toBe(200)
      expect(refusedWithInvalidGrant(yield* tokenRequest(url, { assertion }))).toMatch(/jti/)
    }))

  it.effect("a jti is remembered until its assertion expires, then swept", () =>
    Effect.gen(function*() {
      const { silicon } = yield* createSilicon()
      const sql = yield* SqlClient.SqlClient
      const at = new Date()
      const soon = new Date(at.getTime() + 60_000)
      expect(yield* claimJti(silicon.uuid, "j1", soon, at)).toBe(true)
      expect(yield* claimJti(silicon.uuid, "j1", soon, at)).toBe(false)
      // Once the first assertion has expired the jti is free again, whether or not the sweep ran.
      const later = new Date(soon.getTime() + 1000)
      expect(yield* claimJti(silicon.uuid, "j1", new Date(later.getTime() + 60_000), later)).toBe(true)
      expect(yield* claimJti(silicon.uuid, "j2", new Date(at.getTime() - 1000), new Date(at.getTime() - 2000))).toBe(true)
      expect(yield* sweepAssertionJtis).toBeGreaterThanOrEqual(1)
      const left = yield* sql<{ readonly jti: string }>`
        SELECT jti FROM silicon_assertion_jtis WHERE silicon_uuid = ${silicon.uuid} ORDER BY jti
      `.pipe(Effect.orDie)
      expect(left.map((row) => row.jti)).toEqual(["j1"])
    }))

  it.effect("the verifier proves the signer; the token endpoint refuses a Silicon that may not sign in", () =>
    Effect.gen(function*() {
      const { silicon, key, url, claims } = yield* siliconWithKey
      const sql = yield* SqlClient.SqlClient
      yield* sql`UPDATE accounts SET status = 'deleted' WHERE uuid = ${silicon.uuid}`.pipe(Effect.orDie)
      const answer = yield* tokenRequest(url, { assertion: yield* sign(key.privateKey, { ...claims(), iss: silicon.uuid, sub: silicon.uuid }) })
      expect(refusedWithInvalidGrant(answer)).toMatch(/deleted/)
    }))

  it.effect("at POST /v1/silicons/login a good assertion signs in; one no live key of the Silicon signed is 401 invalid_assertion", () =>
    Effect.gen(function*() {
      const { silicon, key, url, claims } = yield* siliconWithKey
      const login = (assertion: string) =>
        Effect.promise(() =>
          fetchAnswer(`${url}/v1/silicons/login`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ assertion, client_label: "cli" })
          })
        )
      const good = yield* login(yield* sign(key.privateKey, claims()))
      expect(good.status).toBe(200)
      expect(good.body.account).toMatchObject({ uuid: silicon.uuid, kind: "silicon" })
      const stranger = yield* newSiliconKey
      for (const assertion of [yield* sign(stranger.privateKey, claims()), "not.a.jwt"]) {
        const refused = yield* login(assertion)
        expect([refused.status, refused.body.error.code]).toEqual([401, "invalid_assertion"])
        expect(refused.headers.get("cache-control")).toBe("no-store")
      }
    }))

  it.effect("a JSON body works as a form does", () =>
    Effect.gen(function*() {
      const { key, url, claims } = yield* siliconWithKey
      const answer = yield* Effect.promise(async () =>
        fetchAnswer(`${url}/v1/oauth/token`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            grant_type: JWT_BEARER,
            client_id: "accounts",
            assertion: await new jose.SignJWT(claims()).setProtectedHeader({ alg: "EdDSA" }).sign(key.privateKey)
          })
        })
      )
      expect(answer.status).toBe(200)
    }))

  it.scoped("a replay that reaches a second server on the same database is refused", () =>
    Effect.gen(function*() {
      const database = yield* TestDatabase.sharedByProcesses(accountsMigrations)
      // Behind one public origin, both servers expect the same aud.
      const publicUrl = "https://accounts.example.test"
      const start = Layer.build(accountsServerOn(database, { publicUrl }))
      const [first, second] = yield* Effect.all([start, start])
      const addressOf = (context: Context.Context<AccountsUnderTest>) =>
        `http://127.0.0.1:${Context.get(context, AccountsUnderTest).settings.port}`
      const { id, key } = yield* Effect.gen(function*() {
        const created = yield* createSilicon()
        const { accessToken } = yield* signInDirectly(created.silicon.uuid)
        const key = yield* newSiliconKey
        const added = yield* Effect.promise(() =>
          fetchAnswer(`${addressOf(first)}/v1/me/keys`, {
            method: "POST",
            headers: { authorization: `Bearer ${accessToken}`, "content-type": "application/json" },
            body: JSON.stringify({ name: "k", public_key: key.jwk })
          })
        )
        expect(added.status).toBe(201)
        return { id: created.id, key }
      }).pipe(Effect.provide(first))
      const iat = Math.floor(Date.now() / 1000)
      const assertionWith = (jti: string) =>
        sign(key.privateKey, { iss: id, sub: id, aud: `${publicUrl}/v1/oauth/token`, iat, exp: iat + 120, jti })
      const assertion = yield* assertionWith("only-once")
      expect((yield* tokenRequest(addressOf(first), { assertion })).status).toBe(200)
      const replayed = yield* tokenRequest(addressOf(second), { assertion })
      expect(refusedWithInvalidGrant(replayed)).toMatch(/jti/)
      const fresh = yield* assertionWith("another")
      expect((yield* tokenRequest(addressOf(second), { assertion: fresh })).status).toBe(200)
    }))
})
