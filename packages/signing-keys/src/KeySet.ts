import type { EncryptionKey } from "@platform/crypto"
import { Effect, type Option } from "effect"
import { createPrivateKey, type KeyObject } from "node:crypto"
import { SigningKeyLoadError } from "./errors.ts"
import { openPrivateKey } from "./privateKeyCodec.ts"
import type { Jwks } from "./PublicJwk.ts"
import type { SigningAlg } from "./SigningAlg.ts"
import type { PublishedKeyRow } from "./signingKeyStore.ts"

export interface ActiveSigningKey {
  readonly kid: string
  readonly alg: SigningAlg
  readonly privateKey: KeyObject
}

/** What one refresh loads: the key to sign with per alg, and the JWKS both as an object and as served JSON. */
export interface KeySet {
  readonly active: Readonly<Record<SigningAlg, ActiveSigningKey>>
  readonly jwks: Jwks
  readonly jwksJson: string
}

/**
 * Builds the key set from the published rows. Private keys already imported by `previous`
 * (same kid) are reused, so a refresh that finds no rotation decrypts and parses nothing.
 */
export const buildKeySet = (
  rows: ReadonlyArray<PublishedKeyRow>,
  encryptionKey: Option.Option<EncryptionKey>,
  previous: KeySet | undefined
): Effect.Effect<KeySet, SigningKeyLoadError> =>
  Effect.gen(function*() {
    const activeKey = (alg: SigningAlg) =>
      Effect.gen(function*() {
        const row = rows.find((candidate) => candidate.alg === alg && candidate.private_key !== null)
        if (row === undefined || row.private_key === null) {
          return yield* new SigningKeyLoadError({ message: `no active ${alg} signing key in signing_keys` })
        }
        const known = previous?.active[alg]
        if (known?.kid === row.kid) return known
        const pem = yield* openPrivateKey(encryptionKey, row.kid, row.private_key)
        const privateKey = yield* Effect.try({
          try: () => createPrivateKey(pem),
          catch: () => new SigningKeyLoadError({ kid: row.kid, message: `signing key ${row.kid} is not a valid ${alg} PKCS8 key` })
        })
        if (privateKey.asymmetricKeyType !== (alg === "EdDSA" ? "ed25519" : "rsa")) {
          return yield* new SigningKeyLoadError({ kid: row.kid, message: `signing key ${row.kid} is not a valid ${alg} PKCS8 key` })
        }
        return { kid: row.kid, alg, privateKey }
      })
    const active = { EdDSA: yield* activeKey("EdDSA"), RS256: yield* activeKey("RS256") }
    // Frozen because the same object is handed to every caller until the next refresh.
    const keys = rows.map((row) => Object.freeze({ ...row.public_jwk }))
    Object.freeze(keys)
    const jwks: Jwks = Object.freeze({ keys })
    return { active, jwks, jwksJson: JSON.stringify(jwks) }
  })
