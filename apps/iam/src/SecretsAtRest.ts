import { makeSecretsAtRest } from "@platform/crypto"
import { Effect } from "effect"
import { IamConfig } from "./config.ts"

/** What a kept secret is for; bound into its envelope, so one cannot pass for another. */
export type SecretPurpose = "idempotent_answer" | "sso_client_secret" | "sso_webhook_secret" | "sso_round_trip" | "webhook_secret"

/** IAM's secrets at rest, sealed with IAM_KEY_ENCRYPTION_KEY when it is set. */
export class SecretsAtRest extends Effect.Service<SecretsAtRest>()("iam/SecretsAtRest", {
  effect: Effect.flatMap(IamConfig, (config) => makeSecretsAtRest<SecretPurpose>(config.keyEncryptionKey))
}) {}
