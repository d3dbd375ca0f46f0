import { SqlClient } from "@effect/sql"
import { rowsDecoder } from "@platform/database"
import { now } from "@platform/service"
import { Effect, Schema } from "effect"
import { randomUUID } from "node:crypto"

export const HistoryRow = Schema.Struct({
  id: Schema.String,
  at: Schema.DateFromSelf,
  actor_uuid: Schema.NullOr(Schema.String),
  kind: Schema.String,
  data: Schema.Unknown
})
const decodeHistory = rowsDecoder(HistoryRow)
const decodeCount = rowsDecoder(Schema.Struct({ total: Schema.Union(Schema.Number, Schema.NumberFromString) }))

/**
 * An app's history (spec 2's History item): every area records what it changed in the same transaction
 * as the change (`kind` such as `app.created`, `package.refused`, `release.withdrawn`).
 */
export class HistoryRepo extends Effect.Service<HistoryRepo>()("registry/HistoryRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return {
      record: (appId: string, actorUuid: string | null, kind: string, data: Record<string, unknown> = {}) =>
        Effect.flatMap(now, (at) =>
          sql`
            insert into app_history (id, app_id, at, actor_uuid, kind, data)
            values (${`hist_${randomUUID().replaceAll("-", "")}`}, ${appId}, ${at}, ${actorUuid}, ${kind}, ${JSON.stringify(data)}::jsonb)
          `).pipe(Effect.asVoid, Effect.orDie),
      page: (appId: string, limit: number, offset: number) =>
        Effect.all({
          items: sql`
            select id, at, actor_uuid, kind, data from app_history where app_id = ${appId}
            order by at desc, position desc limit ${limit} offset ${offset}
          `.pipe(Effect.flatMap(decodeHistory)),
          total: sql`select count(*) as total from app_history where app_id = ${appId}`.pipe(
            Effect.flatMap(decodeCount),
            Effect.map((rows) => rows[0]?.total ?? 0)
          )
        }).pipe(Effect.orDie)
    }
  })
}) {}
