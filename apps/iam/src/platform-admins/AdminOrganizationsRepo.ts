import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import type { Organization } from "../organizations/Organization.ts"
import { type OrganizationRow, toOrganization } from "../organizations/OrganizationsRepo.ts"

interface Row extends OrganizationRow {
  readonly members_count: number | string
}

const toEntry = (row: Row): { readonly organization: Organization; readonly members_count: number } => ({
  organization: toOrganization(row),
  members_count: Number(row.members_count)
})

/** Every organization, as platform admins read them: by id, with their active members counted. */
export class AdminOrganizationsRepo extends Effect.Service<AdminOrganizationsRepo>()("iam/AdminOrganizationsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const select = sql`
      select o.id, o.name, o.description, owner.identity_uuid as owner_uuid, o.version, o.created_at, o.updated_at,
        o.role_changes_need_approval, o.tag_changes_need_approval,
        (select count(*) from organization_members m where m.organization_id = o.id and m.status = 'active') as members_count
      from organizations o
      join organization_members owner on owner.organization_id = o.id and owner.role = 'owner' and owner.status = 'active'
    `
    return {
      page: (after: Option.Option<string>, limit: number) =>
        sql<Row>`
          ${select}
          ${Option.match(after, { onNone: () => sql``, onSome: (id) => sql`where o.id > ${id}` })}
          order by o.id limit ${limit}
        `.pipe(Effect.map((rows) => rows.map(toEntry)), Effect.orDie),
      find: (id: string) =>
        sql<Row>`${select} where o.id = ${id}`.pipe(Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toEntry)), Effect.orDie)
    }
  })
}) {}
