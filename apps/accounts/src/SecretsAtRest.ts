import { makeSecretsAtRest } from "@platform/crypto"
import { Effect } from "effect"
import { AccountsConfig } from "./config.ts"

/** What a kept secret is for; bound into its envelope, so one cannot pass for another. */
export type SecretPurpose = "webhook_secret" | "idp_client_secret" | "idp_private_key" | "idempotent_answer"

/** Accounts' secrets at rest, sealed with ACCOUNTS_KEY_ENCRYPTION_KEY when it is set. */
export class SecretsAtRest extends Effect.Service<SecretsAtRest>()("accounts/SecretsAtRest", {
  effect: Effect.flatMap(AccountsConfig, (config) => makeSecretsAtRest<SecretPurpose>(config.keyEncryptionKey))
}) {}
