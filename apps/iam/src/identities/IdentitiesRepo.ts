import { SqlClient } from "@effect/sql"
import { now } from "@platform/service"
import { Effect, Option } from "effect"
import type { Identity } from "./Identity.ts"

interface IdentityRow {
  readonly uuid: string
  readonly handle: string
  readonly kind: Identity["kind"]
  readonly display_name: string
  readonly status: string
}

const toIdentity = (row: IdentityRow): Identity => ({
  uuid: row.uuid,
  id: row.handle,
  kind: row.kind,
  display_name: row.display_name,
  status: row.status
})

/** The projection of accounts identities: written on each login and from accounts' changes. */
export class IdentitiesRepo extends Effect.Service<IdentitiesRepo>()("iam/IdentitiesRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return {
      /** Records what accounts said about an identity just now. */
      remember: (identity: Identity) =>
        Effect.flatMap(now, (at) =>
          sql`
            insert into identities (uuid, handle, kind, display_name, status, refreshed_at)
            values (${identity.uuid}, ${identity.id}, ${identity.kind}, ${identity.display_name}, ${identity.status}, ${at})
            on conflict (uuid) do update set handle = excluded.handle, display_name = excluded.display_name,
              status = excluded.status, refreshed_at = excluded.refreshed_at
          `).pipe(Effect.asVoid, Effect.orDie),
      find: (uuid: string) =>
        sql<IdentityRow>`select uuid, handle, kind, display_name, status from identities where uuid = ${uuid}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toIdentity)),
          Effect.orDie
        )
    }
  })
}) {}
