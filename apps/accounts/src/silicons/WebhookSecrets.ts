import { decodeEncryptionKey, openSecret, sealSecret } from "@platform/crypto"
import { Effect, Option } from "effect"
import { AccountsConfig } from "../config.ts"

/** Bound into each sealed value, so a sealed webhook secret cannot pass for another kind of secret. */
const PURPOSE = "webhook_secret"

/**
 * Webhook signing secrets at rest: they sign every delivery, so they are kept
 * (not hashed), encrypted with ACCOUNTS_KEY_ENCRYPTION_KEY when it is set.
 */
export class WebhookSecrets extends Effect.Service<WebhookSecrets>()("accounts/WebhookSecrets", {
  effect: Effect.gen(function*() {
    const config = yield* AccountsConfig
    const key = yield* Option.match(config.keyEncryptionKey, {
      onNone: () => Effect.succeed(Option.none()),
      onSome: (base64) => Effect.map(Effect.orDie(decodeEncryptionKey(base64)), Option.some)
    })
    return {
      seal: (secret: string) => sealSecret(key, secret, PURPOSE),
      open: (stored: string) => Effect.orDie(openSecret(key, stored, PURPOSE))
    } as const
  })
}) {}
