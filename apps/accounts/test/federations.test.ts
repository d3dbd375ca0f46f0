import { expect, layer } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import * as jose from "jose"
import { randomBytes } from "node:crypto"
import { AccountsTest, AccountsUnderTest } from "./support/AccountsUnderTest.ts"
import { callWithBearer } from "./support/bearer.ts"
import { createCarbon } from "./support/carbons.ts"
import { fetchAnswer } from "./support/http.ts"
import { OutsideIssuer, OutsideIssuerLive, type Tenant } from "./support/outsideIssuer.ts"
import { signInDirectly } from "./support/signIn.ts"
import { createSilicon } from "./support/silicons.ts"

const TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange"
const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer"
const JWT_TYPE = "urn:ietf:params:oauth:token-type:jwt"
const AUDIENCE = "https://accounts.example/federation"

/** The accounts server trusting the test issuer's CA, loopback let through the guard (development), one address per test. */
const ServerAndIssuer = Layer.unwrapEffect(Effect.map(OutsideIssuer, (issuer) =>
  AccountsTest({ webhookAllowLoopback: true, trustProxy: true, issuerExtraCa: Option.some(issuer.caPem) }))).pipe(
    Layer.provideMerge(OutsideIssuerLive)
  )

let addresses = 0
/** A client address of its own, so that each test has its own 60-a-minute window. */
const newAddress = () => `203.0.113.${++addresses}`

const tokenRequest = (parameters: Record<string, string>, address = newAddress()) =>
  Effect.flatMap(AccountsUnderTest, ({ url }) =>
    Effect.promise(() =>
      fetchAnswer(`${url}/v1/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": address },
        body: new URLSearchParams(parameters).toString()
      })
    ))

const exchange = (subjectToken: string, address?: string) =>
  tokenRequest({ grant_type: TOKEN_EXCHANGE, subject_token: subjectToken, subject_token_type: JWT_TYPE }, address)

const trust = (issuer: string, conditions = [{ claim: "sub", value: "workload-1" }]) => ({
  name: "CI workload",
  issuer,
  audience: AUDIENCE,
  conditions
})

/** A Silicon whose custodian trusts the tenant's tokens for `workload-1`. */
const trustingSilicon = (tenant: Tenant, conditions?: ReadonlyArray<{ claim: string; value: string }>) =>
  Effect.gen(function*() {
    const created = yield* createSilicon()
    const custodian = yield* signInDirectly(created.custodian.uuid)
    const added = yield* callWithBearer("POST", `/v1/silicons/${created.id}/federations`, custodian.accessToken, trust(tenant.issuer, conditions ? [...conditions] : undefined))
    expect(added.status).toBe(201)
    return { ...created, custodianToken: custodian.accessToken, federationId: added.body.id as string }
  })

const invalidGrant = (description: string | RegExp) => ({
  error: "invalid_grant",
  error_description: typeof description === "string" ? description : expect.stringMatching(description)
})

layer(ServerAndIssuer, { excludeTestServices: true, timeout: 30_000 })("Federations (trusted outside issuers)", (it) => {
  it.effect("the custodian adds, lists and removes trusts; others learn nothing; limits hold", () =>
    Effect.gen(function*() {
      const issuer = yield* OutsideIssuer
      const tenant = yield* Effect.promise(() => issuer.tenant("routes"))
      const { custodian, id, silicon } = yield* createSilicon()
      const { accessToken } = yield* signInDirectly(custodian.uuid)
      const path = `/v1/silicons/${id}/federations`
      const added = yield* callWithBearer("POST", path, accessToken, trust(tenant.issuer))
      expect(added.status).toBe(201)
      expect(added.body).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        name: "CI workload",
        issuer: tenant.issuer,
        audience: AUDIENCE,
        conditions: [{ claim: "sub", value: "workload-1" }],
        created_at: expect.stringMatching(/Z$/)
      })
      const byUuid = yield* callWithBearer("GET", `/v1/silicons/${silicon.uuid}/federations`, accessToken)
      expect(byUuid.body).toEqual({ items: [added.body], next_cursor: null })

      const stranger = yield* signInDirectly((yield* createCarbon()).uuid)
      const notTheirs = yield* callWithBearer("GET", path, stranger.accessToken)
      expect(notTheirs.status).toBe(404)
      expect(notTheirs.body.error.code).toBe("silicon_not_found")
      const asSilicon = yield* callWithBearer("GET", path, (yield* signInDirectly(silicon.uuid)).accessToken)
      expect(asSilicon.status).toBe(403)
      expect(asSilicon.body.error.code).toBe("carbon_only")

      const refusedField = (body: unknown) =>
        Effect.map(callWithBearer("POST", path, accessToken, body), (answer) => {
          expect(answer.status).toBe(422)
          expect(answer.body.error.code).toBe("validation_failed")
          return Object.keys(answer.body.error.details.fields)
        })
      const condition = { claim: "sub", value: "x" }
      expect(yield* refusedField({ ...trust(tenant.issuer), conditions: [] })).toEqual(["conditions"])
      expect(yield* refusedField({ ...trust(tenant.issuer), conditions: Array(11).fill(condition) })).toEqual(["conditions"])
      expect(yield* refusedField({ ...trust(tenant.issuer), conditions: [{ claim: "c".repeat(101), value: "x" }] }))
        .toEqual(["conditions.0.claim"])
      expect(yield* refusedField({ ...trust(tenant.issuer), conditions: [{ claim: "sub", value: "v".repeat(501) }] }))
        .toEqual(["conditions.0.value"])
      expect(yield* refusedField({ ...trust(tenant.issuer), name: "n".repeat(101), audience: "a".repeat(401) }))
        .toEqual(["name", "audience"])
      expect(yield* refusedField({ ...trust(`https://issuer.example/${"p".repeat(300)}`) })).toEqual(["issuer"])
      expect(yield* refusedField({ ...trust(tenant.issuer), extra: true })).toEqual(["extra"])
      for (const bad of ["http://127.0.0.1:9/t/x", "https://10.0.0.8/issuer", "https://metadata.internal", "https://issuer.example/?q=1"]) {
        expect(yield* refusedField(trust(bad))).toEqual(["issuer"])
      }

      for (let n = 2; n <= 20; n++) {
        expect((yield* callWithBearer("POST", path, accessToken, { ...trust(tenant.issuer), name: `trust ${n}` })).status).toBe(201)
      }
      const tooMany = yield* callWithBearer("POST", path, accessToken, trust(tenant.issuer))
      expect(tooMany.status).toBe(409)
      expect(tooMany.body.error).toMatchObject({ code: "too_many_federations", details: { limit: 20 } })

      const removed = yield* callWithBearer("DELETE", `${path}/${added.body.id}`, accessToken)
      expect(removed.status).toBe(204)
      const again = yield* callWithBearer("DELETE", `${path}/${added.body.id}`, accessToken)
      expect(again.status).toBe(404)
      expect(again.body.error.code).toBe("federation_not_found")
      const listed = yield* callWithBearer("GET", path, accessToken)
      expect(listed.body.items).toHaveLength(19)
      expect((yield* callWithBearer("POST", path, accessToken, trust(tenant.issuer))).status).toBe(201)
    }))

  it.effect("a token of a trusted issuer signs the Silicon in by token exchange, without client authentication", () =>
    Effect.gen(function*() {
      const issuer = yield* OutsideIssuer
      const tenant = yield* Effect.promise(() => issuer.tenant("exchange"))
      const { id, silicon, custodianToken, federationId } = yield* trustingSilicon(tenant)
      const token = yield* Effect.promise(() => tenant.sign({ sub: "workload-1", aud: AUDIENCE }, { expiresIn: 3600 }))
      const before = Date.now()
      const answer = yield* exchange(token)
      expect(answer.status).toBe(200)
      expect(answer.headers.get("cache-control")).toBe("no-store")
      expect(answer.body).toMatchObject({
        token_type: "Bearer",
        expires_in: 1800,
        issued_token_type: "urn:ietf:params:oauth:token-type:access_token",
        refresh_token: expect.stringMatching(/^sar_/),
        account: { uuid: silicon.uuid, id, kind: "silicon" }
      })
      // The sign-in lasts until the outside token expires.
      expect(answer.body.refresh_token_expires_at).toBe(new Date(jose.decodeJwt(token).exp! * 1000).toISOString())
      const me = yield* callWithBearer("GET", "/v1/session", answer.body.access_token)
      expect(me.status).toBe(200)
      expect(me.body).toMatchObject({ method: "federation", client_id: "accounts" })

      // At least 30 minutes, at most 12 hours.
      const short = yield* exchange(yield* Effect.promise(() => tenant.sign({ sub: "workload-1", aud: AUDIENCE }, { expiresIn: 300 })))
      const shortEnd = Date.parse(short.body.refresh_token_expires_at)
      expect(shortEnd).toBeGreaterThanOrEqual(before + 30 * 60_000)
      expect(shortEnd).toBeLessThanOrEqual(Date.now() + 30 * 60_000)
      const long = yield* exchange(yield* Effect.promise(() => tenant.sign({ sub: "workload-1", aud: AUDIENCE }, { expiresIn: 86_400 })))
      const longEnd = Date.parse(long.body.refresh_token_expires_at)
      expect(longEnd).toBeGreaterThanOrEqual(before + 12 * 3_600_000)
      expect(longEnd).toBeLessThanOrEqual(Date.now() + 12 * 3_600_000)

      // A removed trust admits nothing more.
      expect((yield* callWithBearer("DELETE", `/v1/silicons/${id}/federations/${federationId}`, custodianToken)).status).toBe(204)
      const afterRemoval = yield* exchange(token)
      expect(afterRemoval.status).toBe(400)
      expect(afterRemoval.body).toEqual(invalidGrant("No Silicon trusts this token's issuer."))
    }))

  it.effect("a wrong audience, a failed condition, an expired or foreign token is refused with invalid_grant", () =>
    Effect.gen(function*() {
      const issuer = yield* OutsideIssuer
      const tenant = yield* Effect.promise(() => issuer.tenant("refusals"))
      yield* trustingSilicon(tenant, [{ claim: "sub", value: "workload-1" }, { claim: "groups", value: "deployers" }])
      const sign = (claims: jose.JWTPayload, options?: Parameters<Tenant["sign"]>[1]) =>
        Effect.promise(() => tenant.sign({ sub: "workload-1", aud: AUDIENCE, groups: ["readers", "deployers"], ...claims }, options))
      const address = newAddress()
      const refused = (token: string) =>
        Effect.map(exchange(token, address), (answer) => {
          expect(answer.status).toBe(400)
          return answer.body
        })
      expect((yield* exchange(yield* sign({}), address)).status).toBe(200)
      expect(yield* refused(yield* sign({ aud: "https://someone-else.example" })))
        .toEqual(invalidGrant("The token's aud is not the audience of any trust in its issuer."))
      expect(yield* refused(yield* sign({ groups: ["readers"] })))
        .toEqual(invalidGrant("The token's claims do not meet every condition of a trust."))
      expect(yield* refused(yield* sign({ sub: "workload-2" })))
        .toEqual(invalidGrant("The token's claims do not meet every condition of a trust."))
      expect(yield* refused(yield* sign({}, { expiresIn: -60 }))).toEqual(invalidGrant("The token has expired."))
      // Within the 30 seconds of skew an expired token still holds.
      expect((yield* exchange(yield* sign({}, { expiresIn: -10 }), address)).status).toBe(200)
      expect(yield* refused(yield* sign({ iss: "https://untrusted.example" }))).toEqual(invalidGrant("No Silicon trusts this token's issuer."))
      expect(yield* refused(yield* sign({}, { unpublishedKid: "refusals-1" })))
        .toEqual(invalidGrant("The token is not signed by a key its issuer publishes."))
      expect(yield* refused("not-a-jwt")).toEqual(invalidGrant("The token is not a signed JWT."))
      const hs256 = yield* Effect.promise(() =>
        new jose.SignJWT({ iss: tenant.issuer, sub: "workload-1", aud: AUDIENCE }).setProtectedHeader({ alg: "HS256" })
          .setExpirationTime("1h").sign(randomBytes(32))
      )
      expect(yield* refused(hs256)).toEqual(invalidGrant(/^The token's alg must be one of/))
      const huge = yield* sign({ padding: "x".repeat(16 * 1024) })
      expect(yield* refused(huge)).toEqual(invalidGrant("The token is longer than 16384 bytes."))
      const wrongType = yield* tokenRequest({ grant_type: TOKEN_EXCHANGE, subject_token: huge, subject_token_type: "urn:x" }, address)
      expect(wrongType.body.error).toBe("unsupported_token_type")
    }))

  it.effect("an issuer that redirects, or whose JWKS is over 256 KB, signs nothing in", () =>
    Effect.gen(function*() {
      const issuer = yield* OutsideIssuer
      const redirecting = yield* Effect.promise(() => issuer.tenant("redirecting", "redirect"))
      const bloated = yield* Effect.promise(() => issuer.tenant("bloated", "huge_jwks"))
      yield* trustingSilicon(redirecting)
      yield* trustingSilicon(bloated)
      const viaRedirect = yield* exchange(yield* Effect.promise(() => redirecting.sign({ sub: "workload-1", aud: AUDIENCE })))
      expect(viaRedirect.status).toBe(400)
      expect(viaRedirect.body).toEqual(invalidGrant(/^The issuer's keys could not be read: .* answered HTTP 302 \(redirects are not followed\)\.$/))
      const viaHugeJwks = yield* exchange(yield* Effect.promise(() => bloated.sign({ sub: "workload-1", aud: AUDIENCE })))
      expect(viaHugeJwks.status).toBe(400)
      expect(viaHugeJwks.body).toEqual(invalidGrant(/^The issuer's keys could not be read: .* larger than 262144 bytes\.$/))
      expect(bloated.jwksFetches()).toBe(1)
    }))

  it.effect("a rotated key is picked up on its unknown kid with one JWKS fetch for 20 concurrent requests", () =>
    Effect.gen(function*() {
      const issuer = yield* OutsideIssuer
      const tenant = yield* Effect.promise(() => issuer.tenant("rotating"))
      yield* trustingSilicon(tenant)
      const sign = (options?: Parameters<Tenant["sign"]>[1]) => Effect.promise(() => tenant.sign({ sub: "workload-1", aud: AUDIENCE }, options))
      const address = newAddress()
      expect((yield* exchange(yield* sign(), address)).status).toBe(200)
      expect(tenant.jwksFetches()).toBe(1)
      yield* Effect.promise(() => tenant.rotate())
      const rotated = yield* sign()
      expect(jose.decodeProtectedHeader(rotated).kid).toBe("rotating-2")
      const answers = yield* Effect.all(Array.from({ length: 20 }, () => exchange(rotated, address)), { concurrency: "unbounded" })
      expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200))
      expect(tenant.jwksFetches()).toBe(2)
      // A kid the issuer does not publish asks again at most every 30 seconds.
      const unknown = yield* exchange(yield* sign({ unpublishedKid: "never-published" }), address)
      expect(unknown.body).toEqual(invalidGrant("The token is not signed by a key its issuer publishes."))
      expect(tenant.jwksFetches()).toBe(2)
    }))

  it.effect("the jwt-bearer grant takes an outside token as its assertion", () =>
    Effect.gen(function*() {
      const issuer = yield* OutsideIssuer
      const tenant = yield* Effect.promise(() => issuer.tenant("bearer"))
      const { silicon } = yield* trustingSilicon(tenant)
      const assertion = yield* Effect.promise(() => tenant.sign({ sub: "workload-1", aud: AUDIENCE }))
      const answer = yield* tokenRequest({ grant_type: JWT_BEARER, client_id: "accounts", assertion, client_label: "ci" })
      expect(answer.status).toBe(200)
      expect(answer.body.account.uuid).toBe(silicon.uuid)
      expect(answer.body.issued_token_type).toBeUndefined()
      const session = yield* callWithBearer("GET", "/v1/session", answer.body.access_token)
      expect(session.body).toMatchObject({ method: "federation", client_label: "ci" })
    }))

  it.effect("two Silicons trusting one token: the request names one with silicon", () =>
    Effect.gen(function*() {
      const issuer = yield* OutsideIssuer
      const tenant = yield* Effect.promise(() => issuer.tenant("shared"))
      const first = yield* trustingSilicon(tenant)
      yield* trustingSilicon(tenant)
      const token = yield* Effect.promise(() => tenant.sign({ sub: "workload-1", aud: AUDIENCE }))
      const address = newAddress()
      const ambiguous = yield* exchange(token, address)
      expect(ambiguous.body).toEqual(invalidGrant(/^Several Silicons trust this token/))
      const named = yield* tokenRequest({ grant_type: TOKEN_EXCHANGE, subject_token: token, subject_token_type: JWT_TYPE, silicon: first.id }, address)
      expect(named.status).toBe(200)
      expect(named.body.account.uuid).toBe(first.silicon.uuid)
    }))

  it.effect("outside tokens are limited to 60 a minute per IP (429 rate_limited with Retry-After)", () =>
    Effect.gen(function*() {
      const address = newAddress()
      // 121 in a row: however the minute's edge splits them, one window holds more than 60.
      const answers = yield* Effect.all(Array.from({ length: 121 }, () => exchange("not-a-jwt", address)), { concurrency: 8 })
      const limited = answers.filter((answer) => answer.status === 429)
      expect(limited.length).toBeGreaterThanOrEqual(1)
      expect(limited[0]!.body).toEqual({ error: "rate_limited", error_description: expect.stringContaining("60 per minute per IP") })
      expect(Number(limited[0]!.headers.get("retry-after"))).toBeGreaterThan(0)
    }))
})
