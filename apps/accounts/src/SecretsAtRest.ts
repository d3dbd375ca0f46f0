import { decodeEncryptionKey, openSecret, sealSecret } from "@platform/crypto"
import { Effect, Option } from "effect"
import { AccountsConfig } from "./config.ts"

/** What a kept secret is for; bound into its envelope, so one cannot pass for another. */
export type SecretPurpose = "webhook_secret" | "idp_client_secret" | "idp_private_key"

/**
 * Secrets we must use again later (webhook signing secrets, an app's own
 * identity-provider credentials), so they cannot be hashed: kept encrypted
 * with ACCOUNTS_KEY_ENCRYPTION_KEY when it is set.
 */
export class SecretsAtRest extends Effect.Service<SecretsAtRest>()("accounts/SecretsAtRest", {
  effect: Effect.gen(function*() {
    const config = yield* AccountsConfig
    const key = yield* Option.match(config.keyEncryptionKey, {
      onNone: () => Effect.succeed(Option.none()),
      onSome: (base64) => Effect.map(Effect.orDie(decodeEncryptionKey(base64)), Option.some)
    })
    return {
      seal: (purpose: SecretPurpose, secret: string) => sealSecret(key, secret, purpose),
      open: (purpose: SecretPurpose, stored: string) => Effect.orDie(openSecret(key, stored, purpose))
    } as const
  })
}) {}
