import { FetchHttpClient } from "@effect/platform"
import { AccountsDirectory } from "@platform/accounts-identity-api"
import { Database, DatabaseConfig } from "@platform/database"
import { IdempotencyStore } from "@platform/idempotency"
import { MessageDelivery, MessageOutbox, transportFromConfig } from "@platform/mail"
import { RateLimiter } from "@platform/rate-limit"
import { Effect, Layer, Option, Redacted } from "effect"
import { IamConfig } from "./config.ts"
import { iamMigrations } from "./migrations.ts"
import { AccountChangesFollowerLive } from "./account-changes/AccountChangesFollower.ts"
import { IamRetentionLive } from "./retention.ts"
import { IamWebhookWorkerLive } from "./webhooks/WebhookWorker.ts"

/** The database named by IAM_DATABASE_URL, or the embedded one under IAM_DATA_DIR (default data/iam). */
export const IamDatabaseLive = Database.layerConfig({ prefix: "IAM_", service: "iam", migrations: iamMigrations })

/** The stores every area shares, over whichever database is provided. */
export const IamStoresLive = Layer.mergeAll(RateLimiter.layer, IdempotencyStore.layer, MessageOutbox.layer)

/**
 * Accounts' identities over its internal routes (IAM_ACCOUNTS_URL with IAM_ACCOUNTS_INTERNAL_TOKEN). Without
 * the token accounts refuses every call, which IAM answers as 503 accounts_unavailable.
 */
export const IamAccountsDirectoryLive = Layer.unwrapEffect(
  Effect.map(IamConfig, (config) =>
    AccountsDirectory.layer({
      baseUrl: config.accountsUrl,
      token: Option.getOrElse(config.accountsToken, () => Redacted.make(""))
    }))
).pipe(Layer.provide(FetchHttpClient.layer))

/**
 * Background work of a running server: delivering queued mail and SMS (SMTP, or the development mailbox
 * file), the retention sweeps, following accounts' changes (account-changes/AccountChangesFollower.ts) and
 * delivering IAM's webhooks (webhooks/WebhookWorker.ts).
 */
export const IamWorkersLive = Layer.mergeAll(
  MessageDelivery.layer().pipe(
    Layer.provide(
      Layer.unwrapEffect(
        Effect.map(DatabaseConfig({ prefix: "IAM_", service: "iam" }), (database) => transportFromConfig("IAM_", database.dataDir))
      )
    )
  ),
  IamRetentionLive,
  AccountChangesFollowerLive,
  IamWebhookWorkerLive
)
