import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { TelemetryEvent } from "./Api.ts"

/** Where telemetry events are kept. A database failure is a defect (docs/architecture.md, "Database failures"). */
export class TelemetryRepo extends Effect.Service<TelemetryRepo>()("accounts/TelemetryRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /** One statement for the whole batch. */
    const insert = (events: ReadonlyArray<TelemetryEvent>, at: Date): Effect.Effect<void> =>
      sql`
        INSERT INTO telemetry_events ${
        sql.insert(events.map((event) => ({
          name: event.name,
          source: event.source ?? null,
          step: event.step ?? null,
          data: event.data === undefined ? null : JSON.stringify(event.data),
          received_at: at
        })))
      }
      `.pipe(Effect.orDie, Effect.asVoid, Effect.withSpan("TelemetryRepo.insert"))

    /** Deletes events received before `before`, in bounded batches; returns how many went. */
    const sweep = (before: Date): Effect.Effect<number> =>
      sql<{ readonly id: string }>`
        DELETE FROM telemetry_events WHERE id IN (
          SELECT id FROM telemetry_events WHERE received_at < ${before} ORDER BY received_at LIMIT 10000
        )
        RETURNING id
      `.pipe(Effect.orDie, Effect.map((rows) => rows.length), Effect.withSpan("TelemetryRepo.sweep"))

    return { insert, sweep } as const
  })
}) {}
