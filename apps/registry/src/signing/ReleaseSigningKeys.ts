import { makeSecretsAtRest } from "@platform/crypto"
import { now } from "@platform/service"
import { Data, Effect, Option } from "effect"
import type { KeyObject } from "node:crypto"
import { RegistryConfig } from "../config.ts"
import { generateEd25519, keyIdOf, privateKeyOf, signText } from "./ed25519.ts"
import { type NewSigningKey, SigningKeysRepo } from "./SigningKeysRepo.ts"

/** `keys revoke` of a key that is not an active key. */
export class SigningKeyNotActive extends Data.TaggedError("SigningKeyNotActive")<{ readonly message: string }> {}

/** A signature as the registry hands it out: the exact text signed beside the value. */
export interface TextSignature {
  readonly key_id: string
  readonly algorithm: "ed25519"
  /** The signed text itself (UTF-8), to be parsed by the client only after the signature holds. */
  readonly manifest: string
  /** Ed25519 over the UTF-8 bytes of `manifest`, base64. */
  readonly value: string
}

type Purpose = `release-signing-key:${string}`

/**
 * The registry's release-signing keys: Ed25519, private parts sealed under the key-encryption key
 * (REGISTRY_KEY_ENCRYPTION_KEY), the newest active key signing. The key that signs is read from the database at
 * each signature, so a rotation or revocation by the operator command takes effect at once in every process.
 */
export class ReleaseSigningKeys extends Effect.Service<ReleaseSigningKeys>()("registry/ReleaseSigningKeys", {
  effect: Effect.gen(function*() {
    const repo = yield* SigningKeysRepo
    const config = yield* RegistryConfig
    const secrets = yield* makeSecretsAtRest<Purpose>(config.keyEncryptionKey)
    // Opened private keys by key id: opening one decrypts and parses it.
    const opened = new Map<string, KeyObject>()

    const newKey = (name: Option.Option<string>): Effect.Effect<NewSigningKey> =>
      Effect.map(now, (at) => {
        const pair = generateEd25519()
        const keyId = keyIdOf(pair.publicKeyPem)
        return {
          key_id: keyId,
          name: Option.getOrElse(name, () => `release signing ${at.toISOString().slice(0, 10)}`),
          public_key: pair.publicKeyPem,
          private_key: secrets.seal(`release-signing-key:${keyId}`, pair.privateKeyPem),
          created_at: at
        }
      })

    /** Creates the first key when there is no active key (at start, and after the last active key is revoked). */
    const ensureActive = Effect.tap(repo.ensureActive(newKey(Option.none())), (created) =>
      Option.isSome(created) ? Effect.logInfo(`created release-signing key ${created.value.key_id}`) : Effect.void)

    const signingKey = Effect.gen(function*() {
      let current = yield* repo.current
      if (Option.isNone(current)) {
        yield* ensureActive
        current = yield* repo.current
      }
      const { key_id, private_key } = Option.getOrThrow(current)
      const known = opened.get(key_id)
      if (known !== undefined) return { keyId: key_id, privateKey: known }
      const privateKey = privateKeyOf(yield* secrets.open(`release-signing-key:${key_id}`, private_key))
      opened.set(key_id, privateKey)
      return { keyId: key_id, privateKey }
    })

    /** Signs the text `textOf` gives for the signing key's id (the manifest names the key that signs it). */
    const sign = (textOf: (keyId: string) => string): Effect.Effect<TextSignature> =>
      Effect.map(signingKey, ({ keyId, privateKey }) => {
        const manifest = textOf(keyId)
        return { key_id: keyId, algorithm: "ed25519", manifest, value: signText(privateKey, manifest) }
      })

    /** A new key that signs from now on; the previous keys stay published and active. */
    const rotate = (name: Option.Option<string>) => Effect.flatMap(newKey(name), repo.insert)

    /** Revokes an active key at once; when it was the last active key, a new one is made (returned as `current`). */
    const revoke = (keyId: string, reason: string) =>
      Effect.gen(function*() {
        const revoked = yield* repo.revoke(keyId, yield* now, reason)
        if (Option.isNone(revoked)) {
          return yield* new SigningKeyNotActive({ message: `No active release-signing key has the id ${keyId}.` })
        }
        opened.delete(keyId)
        const created = yield* ensureActive
        return { revoked: revoked.value, created }
      })

    return { sign, rotate, revoke, ensureActive, list: repo.list }
  }),
  dependencies: [SigningKeysRepo.Default]
}) {}
