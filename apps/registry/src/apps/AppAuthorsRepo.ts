import { SqlClient } from "@effect/sql"
import { rowsDecoder } from "@platform/database"
import { Effect, Schema } from "effect"

export const AuthorRow = Schema.Struct({
  account_uuid: Schema.String,
  account_id: Schema.NullOr(Schema.String),
  display_name: Schema.String,
  joined_at: Schema.DateFromSelf
})
export type AuthorRow = typeof AuthorRow.Type
const decodeAuthors = rowsDecoder(AuthorRow)

/** An account joining an app's authors, as accounts named it then. */
export interface NewAuthor {
  readonly uuid: string
  readonly id: string | null
  readonly displayName: string
}

/** `app_authors`: who manages an app, oldest first. */
export class AppAuthorsRepo extends Effect.Service<AppAuthorsRepo>()("registry/AppAuthorsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return {
      /** The app's authors, oldest first (ties by uuid: the order administration passes in). */
      list: (appId: string) =>
        sql`
          select account_uuid, account_id, display_name, joined_at from app_authors
          where app_id = ${appId} order by joined_at, account_uuid
        `.pipe(Effect.flatMap(decodeAuthors), Effect.orDie),
      /** Adds the author; one already there stays as they joined. */
      add: (appId: string, author: NewAuthor, at: Date) =>
        sql`
          insert into app_authors (app_id, account_uuid, account_id, display_name, joined_at)
          values (${appId}, ${author.uuid}, ${author.id}, ${author.displayName}, ${at})
          on conflict (app_id, account_uuid) do nothing
        `.pipe(Effect.asVoid, Effect.orDie),
      remove: (appId: string, uuid: string) =>
        sql`delete from app_authors where app_id = ${appId} and account_uuid = ${uuid}`.pipe(Effect.asVoid, Effect.orDie)
    }
  })
}) {}
