import { SqlClient } from "@effect/sql"
import type { IdentityChange } from "@platform/accounts-identity-api"
import { Effect, Option } from "effect"

const FEED = "accounts_identities"

/** IAM's position in accounts' changes feed, and the projection rows the changes correct. */
export class AccountChangesRepo extends Effect.Service<AccountChangesRepo>()("iam/AccountChangesRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return {
      position: sql<{ readonly cursor: string }>`select cursor from accounts_feed_position where feed = ${FEED}`.pipe(
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), (row) => row.cursor)),
        Effect.orDie
      ),
      advance: (cursor: string, at: Date) =>
        sql`
          insert into accounts_feed_position (feed, cursor, updated_at) values (${FEED}, ${cursor}, ${at})
          on conflict (feed) do update set cursor = excluded.cursor, updated_at = excluded.updated_at
        `.pipe(Effect.asVoid, Effect.orDie),
      /**
       * Corrects the projection of an identity IAM has seen (others are left to their first login); a deleted
       * account keeps its last id here. None when IAM does not know the identity, else the member-visible
       * fields that changed (`id`, `display_name`, `status`).
       */
      correct: (change: IdentityChange, at: Date) =>
        Effect.gen(function*() {
          const before = yield* sql<{ readonly handle: string; readonly display_name: string; readonly status: string }>`
            select handle, display_name, status from identities where uuid = ${change.uuid} for update
          `
          const row = before[0]
          if (row === undefined) return Option.none<ReadonlyArray<string>>()
          yield* sql`
            update identities set handle = coalesce(${change.id}, handle), display_name = ${change.display_name},
              status = ${change.status}, refreshed_at = ${at}
            where uuid = ${change.uuid}
          `
          return Option.some([
            ...(change.id !== null && change.id !== row.handle ? ["id"] : []),
            ...(change.display_name !== row.display_name ? ["display_name"] : []),
            ...(change.status !== row.status ? ["status"] : [])
          ])
        }).pipe(Effect.orDie)
    }
  })
}) {}
