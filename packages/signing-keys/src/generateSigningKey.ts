import { Effect } from "effect"
import * as jose from "jose"
import type { PublicJwk } from "./PublicJwk.ts"
import type { SigningAlg } from "./SigningAlg.ts"

export interface GeneratedSigningKey {
  readonly kid: string
  readonly alg: SigningAlg
  readonly publicJwk: PublicJwk
  readonly privateKeyPem: string
}

const RSA_MODULUS_BITS = 2048

/** A new key pair for `alg` (Ed25519 or RSA 2048), its kid being the RFC 7638 thumbprint of its public JWK. */
export const generateSigningKey = (alg: SigningAlg): Effect.Effect<GeneratedSigningKey> =>
  Effect.promise(async () => {
    const { publicKey, privateKey } = await jose.generateKeyPair(alg, { extractable: true, modulusLength: RSA_MODULUS_BITS })
    const exported = await jose.exportJWK(publicKey)
    const kid = await jose.calculateJwkThumbprint(exported, "sha256")
    return { kid, alg, publicJwk: publicPart(alg, kid, exported), privateKeyPem: await jose.exportPKCS8(privateKey) }
  })

// Copies only the public members, by name, rather than deleting private ones from the export.
const publicPart = (alg: SigningAlg, kid: string, jwk: jose.JWK): PublicJwk => {
  switch (alg) {
    case "EdDSA":
      return { kty: "OKP", crv: "Ed25519", x: required(jwk.x), kid, alg, use: "sig" }
    case "RS256":
      return { kty: "RSA", n: required(jwk.n), e: required(jwk.e), kid, alg, use: "sig" }
  }
}

const required = (member: string | undefined): string => {
  if (member === undefined) throw new Error("exported public JWK lacks a required member")
  return member
}
