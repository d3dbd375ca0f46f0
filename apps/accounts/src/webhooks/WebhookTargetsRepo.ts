import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import type { WebhookReceiver } from "../events/webhookDeliveries.ts"

/** A receiver's webhook as stored: the URL and the sealed secret; `paused` for a disabled app. */
export interface StoredWebhook {
  readonly url: string | null
  readonly sealedSecret: string | null
  readonly paused: boolean
}

/**
 * The webhook columns of apps (`apps.webhook_url`, `webhook_secret`) and Silicons
 * (`silicons.webhook_url`, `webhook_secret`), secrets sealed with SecretsAtRest (`webhook_secret`).
 * Steps that run inside a caller's transaction leave SqlError to it; reads make it a defect.
 */
export class WebhookTargetsRepo extends Effect.Service<WebhookTargetsRepo>()("accounts/WebhookTargetsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /** None: the app or the live Silicon does not exist (any more). */
    const find = (receiver: WebhookReceiver): Effect.Effect<Option.Option<StoredWebhook>> =>
      (receiver.kind === "app"
        ? sql<{ url: string | null; sealed_secret: string | null; paused: boolean }>`
            SELECT webhook_url AS url, webhook_secret AS sealed_secret, status = 'disabled' AS paused
            FROM apps WHERE app_id = ${receiver.appId}
          `
        : sql<{ url: string | null; sealed_secret: string | null; paused: boolean }>`
            SELECT webhook_url AS url, webhook_secret AS sealed_secret, false AS paused
            FROM silicons WHERE account_uuid = ${receiver.uuid}
          `).pipe(
          Effect.orDie,
          Effect.map((rows) =>
            Option.map(Option.fromNullable(rows[0]), (row) => ({ url: row.url, sealedSecret: row.sealed_secret, paused: row.paused }))
          )
        )

    /** Sets the URL, and the sealed secret when one is given (else the stored one stays). */
    const set = (receiver: WebhookReceiver, url: string, sealedSecret: Option.Option<string>, at: Date) =>
      Effect.gen(function*() {
        const secret = Option.getOrNull(sealedSecret)
        if (receiver.kind === "app") {
          yield* sql`
            UPDATE apps SET webhook_url = ${url}, webhook_secret = COALESCE(${secret}, webhook_secret), updated_at = ${at}
            WHERE app_id = ${receiver.appId}
          `
        } else {
          yield* sql`
            UPDATE silicons SET webhook_url = ${url}, webhook_secret = COALESCE(${secret}, webhook_secret)
            WHERE account_uuid = ${receiver.uuid}
          `
          yield* sql`UPDATE accounts SET updated_at = ${at}, version = version + 1 WHERE uuid = ${receiver.uuid}`
        }
      })

    /** Removes URL and secret; false when no URL was set. */
    const clear = (receiver: WebhookReceiver, at: Date) =>
      Effect.gen(function*() {
        const cleared = receiver.kind === "app"
          ? yield* sql`
              UPDATE apps SET webhook_url = NULL, webhook_secret = NULL, updated_at = ${at}
              WHERE app_id = ${receiver.appId} AND webhook_url IS NOT NULL RETURNING 1
            `
          : yield* sql`
              UPDATE silicons SET webhook_url = NULL, webhook_secret = NULL
              WHERE account_uuid = ${receiver.uuid} AND webhook_url IS NOT NULL RETURNING 1
            `
        if (cleared.length === 0) return false
        if (receiver.kind === "account") {
          yield* sql`UPDATE accounts SET updated_at = ${at}, version = version + 1 WHERE uuid = ${receiver.uuid}`
        }
        return true
      })

    return { find, set, clear } as const
  })
}) {}
