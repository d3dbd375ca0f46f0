import { SqlClient } from "@effect/sql"
import { rowsDecoder } from "@platform/database"
import { Effect, Option, Schema } from "effect"
import type { PlatformAdminGrant } from "./PlatformAdminGrant.ts"

const GrantRow = Schema.Struct({
  carbon_uuid: Schema.String,
  granted_at: Schema.DateFromSelf,
  granted_by: Schema.NullOr(Schema.String)
})
const decodeGrants = rowsDecoder(GrantRow)

const toGrant = (row: typeof GrantRow.Type): PlatformAdminGrant => ({ ...row, granted_at: row.granted_at.toISOString() })

/** Platform admin grants. Database failures are defects. */
export class PlatformAdminsRepo extends Effect.Service<PlatformAdminsRepo>()("iam/PlatformAdminsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const current = (carbonUuid: string): Effect.Effect<Option.Option<PlatformAdminGrant>> =>
      sql`
        select carbon_uuid, granted_at, granted_by from platform_admin_grants
        where carbon_uuid = ${carbonUuid} and revoked_at is null
      `.pipe(Effect.flatMap(decodeGrants), Effect.orDie, Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toGrant)))

    /** Grants the Carbon admin rights; a Carbon that holds a current grant keeps it unchanged. */
    const grant = (carbonUuid: string, grantedBy: string | null, at: Date): Effect.Effect<PlatformAdminGrant> =>
      sql`
        insert into platform_admin_grants (carbon_uuid, granted_at, granted_by)
        values (${carbonUuid}, ${at}, ${grantedBy})
        on conflict (carbon_uuid) where revoked_at is null do nothing
      `.pipe(
        Effect.orDie,
        Effect.zipRight(current(carbonUuid)),
        Effect.flatMap(Option.match({
          onNone: () => Effect.dieMessage("a platform admin grant vanished while it was written"),
          onSome: Effect.succeed
        }))
      )

    /** Ends the Carbon's current grant; false when it held none. */
    const revoke = (carbonUuid: string, revokedBy: string | null, at: Date): Effect.Effect<boolean> =>
      sql`
        update platform_admin_grants set revoked_at = ${at}, revoked_by = ${revokedBy}
        where carbon_uuid = ${carbonUuid} and revoked_at is null
        returning 1
      `.pipe(Effect.orDie, Effect.map((rows) => rows.length > 0))

    return { current, grant, revoke } as const
  })
}) {}
