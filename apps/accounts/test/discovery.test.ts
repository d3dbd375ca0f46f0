import { describe, expect, layer } from "@effect/vitest"
import { SigningKeys } from "@platform/signing-keys"
import { Effect } from "effect"
import * as jose from "jose"
import * as client from "openid-client"
import { AccountsTest, AccountsUnderTest } from "./support/AccountsUnderTest.ts"
import { fetchAnswer } from "./support/http.ts"

const get = (path: string, init?: RequestInit) =>
  Effect.flatMap(AccountsUnderTest, ({ url }) => Effect.promise(() => fetchAnswer(`${url}${path}`, init)))

layer(AccountsTest(), { excludeTestServices: true })("discovery and keys", (it) => {
  it.effect("openid-client discovers our issuer and reads every endpoint from it", () =>
    Effect.gen(function*() {
      const { url } = yield* AccountsUnderTest
      const config = yield* Effect.promise(() =>
        client.discovery(new URL(url), "accounts", undefined, client.None(), { execute: [client.allowInsecureRequests] })
      )
      const metadata = config.serverMetadata()
      expect(metadata.issuer).toBe(url)
      expect(metadata.token_endpoint).toBe(`${url}/v1/oauth/token`)
      expect(metadata.jwks_uri).toBe(`${url}/.well-known/jwks.json`)
    }))

  // Spec 1's list (docs/decisions.md, "OAuth for apps"); RFC 9207's iss is advertised.
  it.effect("the discovery document has exactly spec 1's fields and values", () =>
    Effect.gen(function*() {
      const { url } = yield* AccountsUnderTest
      const res = yield* get("/.well-known/openid-configuration")
      expect(res.status).toBe(200)
      expect(res.body).toEqual({
        issuer: url,
        authorization_endpoint: `${url}/authorize`,
        token_endpoint: `${url}/v1/oauth/token`,
        userinfo_endpoint: `${url}/v1/userinfo`,
        jwks_uri: `${url}/.well-known/jwks.json`,
        revocation_endpoint: `${url}/v1/oauth/revoke`,
        introspection_endpoint: `${url}/v1/oauth/introspect`,
        device_authorization_endpoint: `${url}/v1/device/authorize`,
        response_types_supported: ["code"],
        response_modes_supported: ["query"],
        grant_types_supported: [
          "authorization_code",
          "refresh_token",
          "urn:ietf:params:oauth:grant-type:device_code",
          "urn:ietf:params:oauth:grant-type:jwt-bearer",
          "urn:ietf:params:oauth:grant-type:token-exchange",
          "urn:accounts:params:oauth:grant-type:short-lived-token"
        ],
        subject_types_supported: ["public"],
        id_token_signing_alg_values_supported: ["EdDSA", "RS256"],
        scopes_supported: ["openid", "profile", "email", "phone", "dob", "timezone", "offline_access"],
        claims_supported: expect.arrayContaining([
          "sub", "iss", "aud", "exp", "iat", "nonce", "auth_time", "azp", "at_hash",
          "name", "picture", "email", "email_verified", "phone_number", "phone_number_verified", "birthdate", "zoneinfo"
        ]),
        token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "none"],
        introspection_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
        revocation_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "none"],
        code_challenge_methods_supported: ["S256", "plain"],
        prompt_values_supported: ["none", "login", "consent", "select_account"],
        claims_parameter_supported: false,
        request_parameter_supported: false,
        request_uri_parameter_supported: false,
        authorization_response_iss_parameter_supported: true
      })
      expect(res.headers.get("access-control-allow-origin")).toBe("*")
      expect(res.headers.get("cache-control")).toBe("public, max-age=300")
      expect(res.headers.get("accounts-version")).toBe("2026-10-01")
      expect(res.headers.get("vary")).toBe("Accounts-Version")
      expect(res.headers.get("x-content-type-options")).toBe("nosniff")
    }))

  it.effect("the JWKS publishes one Ed25519 and one RSA key, public parts only, CORS * and max-age 300", () =>
    Effect.gen(function*() {
      const res = yield* get("/.well-known/jwks.json")
      expect(res.status).toBe(200)
      expect(res.headers.get("access-control-allow-origin")).toBe("*")
      expect(res.headers.get("cache-control")).toBe("public, max-age=300")
      expect(res.headers.get("x-content-type-options")).toBe("nosniff")
      const keys = res.body.keys as Array<Record<string, string>>
      expect(keys.map((key) => `${key["kty"]}/${key["alg"]}`).sort()).toEqual(["OKP/EdDSA", "RSA/RS256"])
      for (const key of keys) {
        expect(key["kid"]).toMatch(/^[A-Za-z0-9_-]{43}$/)
        expect(key["use"]).toBe("sig")
        for (const privateMember of ["d", "p", "q", "dp", "dq", "qi"]) expect(key).not.toHaveProperty(privateMember)
      }
    }))

  it.effect("a JWT signed by the active Ed25519 key verifies with jose against the served JWKS", () =>
    Effect.gen(function*() {
      const { url } = yield* AccountsUnderTest
      const keys = yield* SigningKeys
      const token = yield* keys.signJwt("EdDSA", { iss: url, sub: "abc", aud: "accounts", exp: Math.floor(Date.now() / 1000) + 60 }, {
        typ: "at+jwt"
      })
      const jwks = jose.createRemoteJWKSet(new URL(`${url}/.well-known/jwks.json`))
      const verified = yield* Effect.promise(() => jose.jwtVerify(token, jwks, { issuer: url, audience: "accounts" }))
      expect(verified.protectedHeader.alg).toBe("EdDSA")
      expect(verified.payload.sub).toBe("abc")
      const identity = yield* keys.signJwt("RS256", { iss: url, sub: "si", aud: "cloud", exp: Math.floor(Date.now() / 1000) + 60 })
      const rsa = yield* Effect.promise(() => jose.jwtVerify(identity, jwks, { issuer: url, audience: "cloud" }))
      expect(rsa.protectedHeader.alg).toBe("RS256")
    }))

  it.effect("documents answered from memory match the HttpApi route's answer, conventions included", () =>
    Effect.gen(function*() {
      for (const path of ["/.well-known/openid-configuration", "/.well-known/jwks.json"]) {
        const fromMemory = yield* get(path, { headers: { "x-request-id": "fast-1", "accounts-version": "2026-10-01" } })
        // A query string takes the full path through the router and the conventions middleware.
        const throughRouter = yield* get(`${path}?via=router`, {
          headers: { "x-request-id": "full-1", "accounts-version": "2026-10-01" }
        })
        expect(fromMemory.status).toBe(200)
        expect(throughRouter.status).toBe(200)
        expect(fromMemory.body).toEqual(throughRouter.body)
        expect(fromMemory.headers.get("x-request-id")).toBe("fast-1")
        expect(throughRouter.headers.get("x-request-id")).toBe("full-1")
        for (const header of ["content-type", "access-control-allow-origin", "cache-control", "accounts-version", "vary"]) {
          expect(fromMemory.headers.get(header)).toBe(throughRouter.headers.get(header))
        }
        const head = yield* get(path, { method: "HEAD" })
        expect(head.status).toBe(200)
        expect(head.body).toBeNull()
        expect(Number(head.headers.get("content-length"))).toBe(JSON.stringify(fromMemory.body).length)
      }
    }))

  describe("the conventions on the real app", () => {
    it.effect("an unserved Accounts-Version is refused on /v1, /.well-known and /openapi.json", () =>
      Effect.gen(function*() {
        for (const path of ["/v1/meta", "/.well-known/jwks.json", "/openapi.json"]) {
          const res = yield* get(path, { headers: { "accounts-version": "2020-01-01" } })
          expect(res.status).toBe(400)
          expect(res.body.error).toEqual({
            code: "unsupported_version",
            message: expect.any(String),
            hint: expect.any(String),
            details: { requested: "2020-01-01", supported: ["2026-10-01"], current: "2026-10-01" }
          })
          expect(res.headers.get("accounts-version")).toBe("2026-10-01")
        }
      }))

    it.effect("unknown routes and wrong methods answer in the envelope", () =>
      Effect.gen(function*() {
        const missing = yield* get("/v1/does-not-exist")
        expect(missing.status).toBe(404)
        expect(missing.body.error.code).toBe("route_not_found")
        const wrongMethod = yield* get("/.well-known/openid-configuration", { method: "POST" })
        expect(wrongMethod.status).toBe(405)
        expect(wrongMethod.headers.get("allow")).toBe("GET, HEAD")
        const openapiPost = yield* get("/openapi.json", { method: "DELETE" })
        expect(openapiPost.status).toBe(405)
      }))
  })
})
