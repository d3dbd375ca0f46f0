import { Database, DatabaseConfig } from "@platform/database"
import { IdempotencyStore } from "@platform/idempotency"
import { MessageDelivery, MessageOutbox, transportFromConfig } from "@platform/mail"
import { RateLimiter } from "@platform/rate-limit"
import { SigningKeys } from "@platform/signing-keys"
import { Effect, Layer } from "effect"
import { AccountsConfig } from "./config.ts"
import { accountsMigrations } from "./migrations.ts"
import { RetentionSweepsLive } from "./retention.ts"
import { CustodianRequestsSweeperLive, LoginStreaksSweeperLive } from "./silicons/SiliconSweepers.ts"
import { VerificationCodesLive } from "./verification/VerificationCodesLive.ts"
import { WebhookWorkerLive } from "./webhooks/WebhookWorkerLive.ts"

/** The database named by ACCOUNTS_DATABASE_URL, or the embedded one under ACCOUNTS_DATA_DIR. */
export const AccountsDatabaseLive = Database.layerConfig({
  prefix: "ACCOUNTS_",
  service: "accounts",
  migrations: accountsMigrations
})

/** Signing keys, encrypted at rest when ACCOUNTS_KEY_ENCRYPTION_KEY is set. */
export const SigningKeysLive = Layer.unwrapEffect(
  Effect.map(AccountsConfig, (config) => SigningKeys.layer({
    encryptionKey: config.keyEncryptionKey,
    refreshSeconds: config.keysRefreshSeconds
  }))
)

/** The stores every area shares, over whichever database is provided. */
export const AccountsStoresLive = VerificationCodesLive.pipe(
  Layer.provideMerge(Layer.mergeAll(SigningKeysLive, RateLimiter.layer, IdempotencyStore.layer, MessageOutbox.layer))
)

/**
 * Background work of a running server: delivering queued mail and SMS through SMTP or, in development,
 * the mailbox file in the data directory; the retention sweeps of spec 1 (`retention.ts`); idle
 * wrong-STK streaks forgotten; the expiry of custodian requests past their 14 days; and webhook delivery
 * (in every process: the queue's claims keep them apart).
 */
export const AccountsWorkersLive = Layer.mergeAll(
  WebhookWorkerLive,
  MessageDelivery.layer().pipe(
    Layer.provide(
      Layer.unwrapEffect(
        Effect.map(
          DatabaseConfig({ prefix: "ACCOUNTS_", service: "accounts" }),
          (database) => transportFromConfig("ACCOUNTS_", database.dataDir)
        )
      )
    )
  ),
  RetentionSweepsLive,
  CustodianRequestsSweeperLive,
  LoginStreaksSweeperLive
)
