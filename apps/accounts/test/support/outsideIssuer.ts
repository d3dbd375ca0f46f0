// @peculiar/x509 builds on tsyringe, which needs the Reflect metadata polyfill loaded first.
import "reflect-metadata"
import * as x509 from "@peculiar/x509"
import { Context, Effect, Layer } from "effect"
import * as jose from "jose"
import { webcrypto } from "node:crypto"
import { once } from "node:events"
import type { IncomingMessage, ServerResponse } from "node:http"
import { createServer } from "node:https"
import type { AddressInfo } from "node:net"

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0])

const EC = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" } as const

const pem = (label: string, der: ArrayBuffer) =>
  `-----BEGIN ${label}-----\n${Buffer.from(der).toString("base64").replace(/(.{64})/g, "$1\n").trim()}\n-----END ${label}-----\n`

/** A CA of the test's own and a server certificate it signed for 127.0.0.1 (a day long): what a TLS server of a test presents. */
export const testCertificates = async () => {
  const notBefore = new Date(Date.now() - 60_000)
  const notAfter = new Date(Date.now() + 86_400_000)
  const caKeys = await webcrypto.subtle.generateKey(EC, true, ["sign", "verify"])
  const ca = await x509.X509CertificateGenerator.createSelfSigned({
    name: "CN=Outside issuer test CA",
    keys: caKeys,
    signingAlgorithm: EC,
    notBefore,
    notAfter,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true)
    ]
  })
  const serverKeys = await webcrypto.subtle.generateKey(EC, true, ["sign", "verify"])
  const server = await x509.X509CertificateGenerator.create({
    subject: "CN=127.0.0.1",
    issuer: ca.subject,
    publicKey: serverKeys.publicKey,
    signingKey: caKeys.privateKey,
    signingAlgorithm: EC,
    notBefore,
    notAfter,
    extensions: [
      new x509.BasicConstraintsExtension(false),
      new x509.SubjectAlternativeNameExtension([{ type: "ip", value: "127.0.0.1" }]),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth])
    ]
  })
  return {
    caPem: ca.toString("pem"),
    certPem: server.toString("pem"),
    keyPem: pem("PRIVATE KEY", await webcrypto.subtle.exportKey("pkcs8", serverKeys.privateKey))
  }
}

type PrivateKey = Awaited<ReturnType<typeof jose.generateKeyPair>>["privateKey"]

interface SigningKey {
  readonly kid: string
  readonly privateKey: PrivateKey
  readonly jwk: jose.JWK
}

const newSigningKey = async (kid: string): Promise<SigningKey> => {
  const { privateKey, publicKey } = await jose.generateKeyPair("ES256", { extractable: true })
  return { kid, privateKey, jwk: { ...(await jose.exportJWK(publicKey)), kid, alg: "ES256", use: "sig" } }
}

/** How one tenant of the issuer answers its discovery and JWKS requests. */
export type TenantBehaviour = "normal" | "redirect" | "huge_jwks"

/** One issuer (a path of the server): its own keys, its JWKS fetch count. */
export interface Tenant {
  readonly issuer: string
  /** JWKS requests this tenant answered. */
  jwksFetches(): number
  /** Signs a token with the current key, or with a key the issuer never published under `unpublishedKid`. */
  sign(claims: jose.JWTPayload, options?: { readonly unpublishedKid?: string; readonly expiresIn?: number }): Promise<string>
  /** Publishes a new key beside the old one and signs with it from now on. */
  rotate(): Promise<void>
}

export interface OutsideIssuerServer {
  /** The PEM of the CA the server's certificate chains to: what the accounts server must trust. */
  readonly caPem: string
  tenant(name: string, behaviour?: TenantBehaviour): Promise<Tenant>
}

/** An OpenID issuer over TLS (its own CA), with tenants at /t/{name}: discovery, JWKS, and jose-signed tokens. */
export class OutsideIssuer extends Context.Tag("test/OutsideIssuer")<OutsideIssuer, OutsideIssuerServer>() {}

interface TenantState {
  readonly behaviour: TenantBehaviour
  keys: Array<SigningKey>
  fetches: number
}

export const OutsideIssuerLive = Layer.scoped(
  OutsideIssuer,
  Effect.gen(function*() {
    const certificates = yield* Effect.promise(testCertificates)
    const tenants = new Map<string, TenantState>()
    let origin = ""
    const answer = (response: ServerResponse, status: number, body: unknown) => {
      response.writeHead(status, { "content-type": "application/json" })
      response.end(JSON.stringify(body))
    }
    const server = createServer({ key: certificates.keyPem, cert: certificates.certPem }, (request: IncomingMessage, response) => {
      const match = /^\/t\/([a-z0-9-]+)(\/.*)$/.exec(request.url ?? "")
      const state = match === null ? undefined : tenants.get(match[1]!)
      if (match === null || state === undefined) return answer(response, 404, { error: "not_found" })
      const issuer = `${origin}/t/${match[1]}`
      if (match[2] === "/.well-known/openid-configuration") {
        if (state.behaviour === "redirect") {
          response.writeHead(302, { location: `${issuer}/elsewhere` })
          return response.end()
        }
        return answer(response, 200, { issuer, jwks_uri: `${issuer}/jwks`, id_token_signing_alg_values_supported: ["ES256"] })
      }
      if (match[2] === "/jwks") {
        state.fetches += 1
        const keys = state.keys.map((key) => key.jwk)
        // 300 KB of padding keys after the real ones: past the 256 KB limit.
        const padding = state.behaviour === "huge_jwks"
          ? Array.from({ length: 3000 }, (_, i) => ({ kty: "oct", kid: `pad-${i}`, k: "x".repeat(90) }))
          : []
        return answer(response, 200, { keys: [...keys, ...padding] })
      }
      return answer(response, 404, { error: "not_found" })
    })
    server.listen(0, "127.0.0.1")
    yield* Effect.promise(() => once(server, "listening"))
    origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`
    yield* Effect.addFinalizer(() =>
      Effect.promise(() => {
        server.closeAllConnections()
        return new Promise<void>((resolve) => server.close(() => resolve()))
      })
    )

    const tenant = async (name: string, behaviour: TenantBehaviour = "normal"): Promise<Tenant> => {
      const state: TenantState = { behaviour, keys: [await newSigningKey(`${name}-1`)], fetches: 0 }
      tenants.set(name, state)
      const issuer = `${origin}/t/${name}`
      return {
        issuer,
        jwksFetches: () => state.fetches,
        sign: async (claims, options = {}) => {
          const key = options.unpublishedKid === undefined ? state.keys.at(-1)! : await newSigningKey(options.unpublishedKid)
          return new jose.SignJWT({ iss: issuer, ...claims })
            .setProtectedHeader({ alg: "ES256", kid: key.kid, typ: "JWT" })
            .setIssuedAt()
            .setExpirationTime(Math.floor(Date.now() / 1000) + (options.expiresIn ?? 3600))
            .sign(key.privateKey)
        },
        rotate: async () => {
          state.keys = [...state.keys, await newSigningKey(`${name}-${state.keys.length + 1}`)]
        }
      }
    }
    return { caPem: certificates.caPem, tenant }
  })
)
