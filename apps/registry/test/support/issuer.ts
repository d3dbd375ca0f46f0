import { Context, Effect, Layer } from "effect"
import * as jose from "jose"
import { randomUUID } from "node:crypto"
import { createServer } from "node:http"
import { listening } from "@platform/testkit"

/** Where the test issuer says it is: what account tokens carry in `iss` and the registry trusts. */
export const TEST_ISSUER = "http://accounts.test"

export interface TokenRequest {
  readonly sub: string
  /** Default `registry`; `developer` for a developer-platform token. */
  readonly aud?: string | ReadonlyArray<string>
  /** Seconds from now until the token expires (default 1800; negative: already expired). */
  readonly expiresIn?: number
}

export interface IssuedTokens {
  /** The JWKS URL the registry reads the issuer's keys from. */
  readonly jwksUrl: string
  /** An access token as accounts signs one (EdDSA, typ at+jwt). */
  readonly token: (request: TokenRequest) => Promise<string>
  /** A token signed with a key the issuer never published. */
  readonly forgedToken: (request: TokenRequest) => Promise<string>
}

/** A stand-in for accounts' token issuing: its own Ed25519 key, the JWKS served over HTTP on a free port. */
export class TestIssuer extends Context.Tag("test/TestIssuer")<TestIssuer, IssuedTokens>() {}

const sign = (key: jose.CryptoKey, kid: string, request: TokenRequest) => {
  const now = Math.floor(Date.now() / 1000)
  return new jose.SignJWT({ client_id: "accounts", sid: `sgn_${randomUUID()}`, scope: "openid profile email" })
    .setProtectedHeader({ alg: "EdDSA", typ: "at+jwt", kid })
    .setIssuer(TEST_ISSUER)
    .setSubject(request.sub)
    .setAudience([...(typeof request.aud === "string" ? [request.aud] : request.aud ?? ["registry"])])
    .setIssuedAt(now)
    .setExpirationTime(now + (request.expiresIn ?? 1800))
    .setJti(randomUUID())
    .sign(key)
}

export const TestIssuerLive = Layer.scoped(
  TestIssuer,
  Effect.gen(function*() {
    const { privateKey, publicKey } = yield* Effect.promise(() => jose.generateKeyPair("EdDSA", { extractable: true }))
    const forged = yield* Effect.promise(() => jose.generateKeyPair("EdDSA"))
    const kid = randomUUID()
    const jwks = JSON.stringify({ keys: [{ ...(yield* Effect.promise(() => jose.exportJWK(publicKey))), kid, alg: "EdDSA", use: "sig" }] })
    const server = createServer((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" }).end(jwks)
    })
    const origin = yield* listening(server)
    return {
      jwksUrl: `${origin}/.well-known/jwks.json`,
      token: (request) => sign(privateKey, kid, request),
      forgedToken: (request) => sign(forged.privateKey, kid, request)
    }
  })
)
