import { SqlClient } from "@effect/sql"
import { columnsOf, rowsDecoder } from "@platform/database"
import { Effect, Option, Schema } from "effect"
import { AppRow } from "./AppRow.ts"

const decodeApps = rowsDecoder(AppRow)
const decodeFlags = rowsDecoder(Schema.Struct({ author: Schema.Boolean }))
const APP_COLUMNS = columnsOf(AppRow.fields)

/** The catalogue's reads every area needs to decide who may see and manage an app. */
export class AppAccessRepo extends Effect.Service<AppAccessRepo>()("registry/AppAccessRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return {
      find: (appId: string) =>
        sql.unsafe(`select ${APP_COLUMNS} from apps where app_id = $1`, [appId]).pipe(
          Effect.flatMap(decodeApps),
          Effect.map((rows) => Option.fromNullable(rows[0])),
          Effect.orDie
        ),
      /** Locks the app's row for the rest of the transaction (changes of authors and administration). */
      findForUpdate: (appId: string) =>
        sql.unsafe(`select ${APP_COLUMNS} from apps where app_id = $1 for update`, [appId]).pipe(
          Effect.flatMap(decodeApps),
          Effect.map((rows) => Option.fromNullable(rows[0])),
          Effect.orDie
        ),
      isAuthor: (appId: string, accountUuid: string) =>
        sql`
          select exists (select 1 from app_authors where app_id = ${appId} and account_uuid = ${accountUuid}) as author
        `.pipe(Effect.flatMap(decodeFlags), Effect.map((rows) => rows[0]?.author === true), Effect.orDie)
    }
  })
}) {}
