import { SqlClient } from "@effect/sql"
import { now } from "@platform/service"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"

/**
 * The registry's outbox (`registry_events`): an event is written in the transaction of the change it tells
 * of, so it exists exactly when the change does. No stream serves it yet (spec 2 leaves event streams not shown).
 */
export class RegistryEventsRepo extends Effect.Service<RegistryEventsRepo>()("registry/RegistryEventsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return {
      append: (type: string, appId: string, data: Record<string, unknown>) =>
        Effect.flatMap(now, (at) =>
          sql`
            insert into registry_events (id, type, app_id, data, occurred_at)
            values (${`evt_${randomUUID().replaceAll("-", "")}`}, ${type}, ${appId}, ${JSON.stringify(data)}::jsonb, ${at})
          `).pipe(Effect.asVoid, Effect.orDie)
    }
  })
}) {}
