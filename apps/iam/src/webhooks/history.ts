import { SqlClient } from "@effect/sql"
import { now } from "@platform/service"
import { Duration, Effect } from "effect"
import { ATTEMPT_HISTORY } from "./iamWebhooks.ts"

/**
 * Spec 2: attempt history is kept 45 days. Attempts older go, and so do deliveries finished (delivered or
 * dead-lettered) more than 45 days ago with their replay records; a pending delivery is never swept.
 */
export const sweepWebhookHistory = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const cutoff = new Date((yield* now).getTime() - Duration.toMillis(ATTEMPT_HISTORY))
  yield* sql`delete from iam_webhook_attempts where attempted_at < ${cutoff}`
  yield* sql`
    delete from iam_webhook_replays where delivery_id in (
      select id from iam_webhook_deliveries where status <> 'pending' and coalesce(delivered_at, created_at) < ${cutoff}
        and not exists (select 1 from iam_webhook_attempts a where a.delivery_id = iam_webhook_deliveries.id)
    )
  `
  yield* sql`
    delete from iam_webhook_deliveries d where d.status <> 'pending' and coalesce(d.delivered_at, d.created_at) < ${cutoff}
      and not exists (select 1 from iam_webhook_attempts a where a.delivery_id = d.id)
  `
}).pipe(Effect.orDie)
