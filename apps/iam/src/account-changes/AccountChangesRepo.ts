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
       * account keeps its last id here. True when IAM knows the identity.
       */
      correct: (change: IdentityChange, at: Date) =>
        sql<{ readonly uuid: string }>`
          update identities set handle = coalesce(${change.id}, handle), display_name = ${change.display_name},
            status = ${change.status}, refreshed_at = ${at}
          where uuid = ${change.uuid}
          returning uuid
        `.pipe(Effect.map((rows) => rows.length > 0), Effect.orDie)
    }
  })
}) {}
