import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import * as jose from "jose"
import { AccountsTest, AccountsUnderTest } from "./support/AccountsUnderTest.ts"
import { createCarbon } from "./support/carbons.ts"
import { callWithBearer } from "./support/bearer.ts"
import { signInDirectly } from "./support/signIn.ts"
import { createSilicon } from "./support/silicons.ts"

const call = callWithBearer

const AUDIENCE = "sts.cloud.example"

/** A signed-in Silicon whose custodian allowed `audiences`. */
const siliconAllowing = (audiences: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const created = yield* createSilicon()
    const custodian = yield* signInDirectly(created.custodian.uuid)
    const set = yield* call("PUT", `/v1/silicons/${created.id}/identity-audiences`, custodian.accessToken, { audiences })
    expect(set.status).toBe(200)
    const { accessToken } = yield* signInDirectly(created.silicon.uuid)
    return { ...created, token: accessToken, custodianToken: custodian.accessToken }
  })

layer(AccountsTest(), { excludeTestServices: true })("Identity tokens and identity audiences", (it) => {
  it.effect("an identity token verifies against the served JWKS (RS256) and carries the Silicon's claims", () =>
    Effect.gen(function*() {
      const { url } = yield* AccountsUnderTest
      const { silicon, id, token } = yield* siliconAllowing([AUDIENCE])
      const before = Math.floor(Date.now() / 1000)
      const issued = yield* call("POST", "/v1/me/identity-tokens", token, { audience: AUDIENCE, ttl_seconds: 600 })
      expect(issued.status).toBe(201)
      expect(issued.headers.get("cache-control")).toBe("no-store")
      expect(issued.body).toEqual({
        identity_token: expect.any(String),
        audience: AUDIENCE,
        subject: silicon.uuid,
        jti: expect.any(String),
        kid: expect.any(String),
        expires_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$/)
      })
      const jwks = jose.createRemoteJWKSet(new URL(`${url}/.well-known/jwks.json`))
      const { payload, protectedHeader } = yield* Effect.promise(() =>
        jose.jwtVerify(issued.body.identity_token, jwks, { issuer: url, audience: AUDIENCE, algorithms: ["RS256"] })
      )
      expect(protectedHeader).toEqual({ alg: "RS256", kid: issued.body.kid, typ: "JWT" })
      expect(payload).toEqual({
        iss: url,
        sub: silicon.uuid,
        aud: AUDIENCE,
        iat: expect.any(Number),
        exp: payload.iat! + 600,
        jti: issued.body.jti,
        token_use: "identity",
        silicon_id: id
      })
      expect(payload.iat).toBeGreaterThanOrEqual(before)
      expect(new Date(payload.exp! * 1000).toISOString()).toBe(issued.body.expires_at)
      const byDefault = yield* call("POST", "/v1/me/identity-tokens", token, { audience: AUDIENCE })
      const claims = jose.decodeJwt(byDefault.body.identity_token)
      expect(claims.exp! - claims.iat!).toBe(300)
      expect(claims.jti).not.toBe(payload.jti)
    }))

  it.effect("an identity token is not a bearer token here", () =>
    Effect.gen(function*() {
      const { token } = yield* siliconAllowing([AUDIENCE])
      const issued = yield* call("POST", "/v1/me/identity-tokens", token, { audience: AUDIENCE })
      const me = yield* call("GET", "/v1/me", issued.body.identity_token)
      expect(me.status).toBe(401)
      expect(me.body.error.code).toBe("identity_token_not_accepted")
    }))

  it.effect("an audience the custodian did not allow is 403; bad bodies are 422; a Carbon is 403", () =>
    Effect.gen(function*() {
      const { token, custodianToken } = yield* siliconAllowing([AUDIENCE])
      const other = yield* call("POST", "/v1/me/identity-tokens", token, { audience: "sts.other.example" })
      expect(other.status).toBe(403)
      expect(other.body.error.code).toBe("audience_not_allowed")
      for (const [body, field] of [
        [{ audience: AUDIENCE, ttl_seconds: 59 }, "ttl_seconds"],
        [{ audience: AUDIENCE, ttl_seconds: 3601 }, "ttl_seconds"],
        [{ audience: AUDIENCE, ttl_seconds: 120.5 }, "ttl_seconds"],
        [{ audience: AUDIENCE, scope: "x" }, "scope"],
        [{}, "audience"]
      ] as const) {
        const refused = yield* call("POST", "/v1/me/identity-tokens", token, body)
        expect(refused.status, JSON.stringify(body)).toBe(422)
        expect(Object.keys(refused.body.error.details.fields)).toEqual([field])
      }
      for (const ttl of [60, 3600]) {
        expect((yield* call("POST", "/v1/me/identity-tokens", token, { audience: AUDIENCE, ttl_seconds: ttl })).status)
          .toBe(201)
      }
      const carbon = yield* call("POST", "/v1/me/identity-tokens", custodianToken, { audience: AUDIENCE })
      expect(carbon.status).toBe(403)
      expect(carbon.body.error.code).toBe("silicon_only")
    }))

  it.effect("60 identity tokens a minute per Silicon; the 61st is 429", () =>
    Effect.gen(function*() {
      const { token } = yield* siliconAllowing([AUDIENCE])
      // Fixed one-minute windows on the real clock: keep all 61 requests in one.
      const intoMinute = Date.now() % 60_000
      if (intoMinute > 50_000) yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 60_500 - intoMinute)))
      const statuses = yield* Effect.all(
        Array.from({ length: 60 }, () =>
          Effect.map(call("POST", "/v1/me/identity-tokens", token, { audience: AUDIENCE }), (answer) => answer.status)),
        { concurrency: 10 }
      )
      expect(statuses.every((status) => status === 201)).toBe(true)
      const refused = yield* call("POST", "/v1/me/identity-tokens", token, { audience: AUDIENCE })
      expect(refused.status).toBe(429)
      expect(refused.body.error.code).toBe("rate_limited")
      expect(refused.body.error.message).toContain("60 per minute per Silicon")
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0)
      const another = yield* siliconAllowing([AUDIENCE])
      expect((yield* call("POST", "/v1/me/identity-tokens", another.token, { audience: AUDIENCE })).status).toBe(201)
    }))

  it.effect("the custodian reads and replaces the audiences, by si: id or uuid; duplicates are removed", () =>
    Effect.gen(function*() {
      const { silicon, id, token, custodianToken } = yield* siliconAllowing([])
      const path = `/v1/silicons/${silicon.uuid}/identity-audiences`
      expect((yield* call("GET", path, custodianToken)).body).toEqual({ audiences: [] })
      const set = yield* call("PUT", `/v1/silicons/${id.toUpperCase()}/identity-audiences`, custodianToken, {
        audiences: ["b.example", "a.example", "b.example"]
      })
      expect(set.status).toBe(200)
      expect(set.body).toEqual({ audiences: ["b.example", "a.example"] })
      expect((yield* call("GET", path, custodianToken)).body).toEqual({ audiences: ["b.example", "a.example"] })
      expect((yield* call("POST", "/v1/me/identity-tokens", token, { audience: "a.example" })).status).toBe(201)
      const cleared = yield* call("PUT", path, custodianToken, { audiences: [] })
      expect(cleared.body).toEqual({ audiences: [] })
      const refused = yield* call("POST", "/v1/me/identity-tokens", token, { audience: "a.example" })
      expect(refused.body.error.code).toBe("audience_not_allowed")
    }))

  it.effect("audience lists are 0 to 20 entries of 1 to 400 characters, in a strict body", () =>
    Effect.gen(function*() {
      const { id, custodianToken } = yield* siliconAllowing([])
      const path = `/v1/silicons/${id}/identity-audiences`
      const twenty = Array.from({ length: 20 }, (_, i) => `aud-${i}.example`)
      expect((yield* call("PUT", path, custodianToken, { audiences: twenty })).body.audiences).toHaveLength(20)
      expect((yield* call("PUT", path, custodianToken, { audiences: ["x".repeat(400)] })).status).toBe(200)
      for (const body of [
        { audiences: [...twenty, "one-more.example"] },
        { audiences: ["x".repeat(401)] },
        { audiences: [""] },
        { audiences: ["ok.example"], extra: 1 },
        {}
      ]) {
        const refused = yield* call("PUT", path, custodianToken, body)
        expect(refused.status, JSON.stringify(body).slice(0, 80)).toBe(422)
        expect(refused.body.error.code).toBe("validation_failed")
      }
      expect((yield* call("GET", path, custodianToken)).body.audiences).toEqual(["x".repeat(400)])
    }))

  it.effect("only the custodian sees a Silicon's audiences: anyone else gets 404, a Silicon 403", () =>
    Effect.gen(function*() {
      const { silicon, id, token } = yield* siliconAllowing([AUDIENCE])
      const stranger = yield* signInDirectly((yield* createCarbon()).uuid)
      for (const path of [`/v1/silicons/${id}/identity-audiences`, `/v1/silicons/${silicon.uuid}/identity-audiences`]) {
        const read = yield* call("GET", path, stranger.accessToken)
        expect(read.status).toBe(404)
        expect(read.body.error.code).toBe("silicon_not_found")
        const write = yield* call("PUT", path, stranger.accessToken, { audiences: [] })
        expect(write.body.error.code).toBe("silicon_not_found")
      }
      const unknown = yield* call("GET", "/v1/silicons/si:nobody-at-all/identity-audiences", stranger.accessToken)
      expect(unknown.body.error.code).toBe("silicon_not_found")
      const asSilicon = yield* call("GET", `/v1/silicons/${id}/identity-audiences`, token)
      expect(asSilicon.status).toBe(403)
      expect(asSilicon.body.error.code).toBe("carbon_only")
    }))
})
