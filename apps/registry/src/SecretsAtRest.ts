import { makeSecretsAtRest } from "@platform/crypto"
import { Effect } from "effect"
import { RegistryConfig } from "./config.ts"

/** What a kept secret is for; bound into its envelope, so one cannot pass for another. */
export type SecretPurpose = "idempotent_answer"

/** The registry's idempotent answers at rest (they may hold a new app secret), sealed with REGISTRY_KEY_ENCRYPTION_KEY when set. */
export class SecretsAtRest extends Effect.Service<SecretsAtRest>()("registry/SecretsAtRest", {
  effect: Effect.flatMap(RegistryConfig, (config) => makeSecretsAtRest<SecretPurpose>(config.keyEncryptionKey))
}) {}
