import { Effect, Option, type Redacted } from "effect"
import { decodeEncryptionKey } from "./encryption-key.ts"
import { openSecret, sealSecret } from "./envelope.ts"

/**
 * Secrets a service must use again later (webhook signing secrets, an app's own identity-provider
 * credentials), so they cannot be hashed: sealed with the service's key-encryption key when one is
 * set. The purpose is bound into each envelope, so a secret kept for one purpose cannot pass for another.
 */
export interface SecretsAtRest<Purpose extends string> {
  readonly seal: (purpose: Purpose, secret: string) => string
  /** Dies when a stored envelope cannot be opened: a wrong or missing key is an operator's fault, not the caller's. */
  readonly open: (purpose: Purpose, stored: string) => Effect.Effect<string>
}

/** Secrets at rest under `keyEncryptionKey` (base64 of 32 bytes), or kept as they are when none is configured. */
export const makeSecretsAtRest = <Purpose extends string>(
  keyEncryptionKey: Option.Option<Redacted.Redacted<string>>
): Effect.Effect<SecretsAtRest<Purpose>> =>
  Effect.map(
    Option.match(keyEncryptionKey, {
      onNone: () => Effect.succeed(Option.none()),
      onSome: (base64) => Effect.map(Effect.orDie(decodeEncryptionKey(base64)), Option.some)
    }),
    (key) => ({
      seal: (purpose, secret) => sealSecret(key, secret, purpose),
      open: (purpose, stored) => Effect.orDie(openSecret(key, stored, purpose))
    })
  )
