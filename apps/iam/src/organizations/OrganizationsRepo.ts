import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import type { GovernanceSettings, MembershipRole, Organization } from "./Organization.ts"

export interface OrganizationRow {
  readonly id: string
  readonly name: string
  readonly description: string | null
  readonly owner_uuid: string
  readonly version: number
  readonly created_at: Date
  readonly updated_at: Date
  readonly role_changes_need_approval: boolean
  readonly tag_changes_need_approval: boolean
}

export const toOrganization = (row: OrganizationRow): Organization => ({
  id: row.id,
  name: row.name,
  description: row.description,
  owner_uuid: row.owner_uuid,
  version: row.version,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
  governance: {
    role_changes_need_approval: row.role_changes_need_approval,
    tag_changes_need_approval: row.tag_changes_need_approval
  }
})

/** A page position in a member's list of organizations: by name, then id. */
export type OrganizationPosition = readonly [name: string, id: string]

/** Organizations: their own fields and their version (the owner is read from the members). */
export class OrganizationsRepo extends Effect.Service<OrganizationsRepo>()("iam/OrganizationsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const selectOrganizations = sql`
      select o.id, o.name, o.description, m.identity_uuid as owner_uuid, o.version, o.created_at, o.updated_at,
        o.role_changes_need_approval, o.tag_changes_need_approval
      from organizations o
      join organization_members m on m.organization_id = o.id and m.role = 'owner' and m.status = 'active'
    `

    return {
      insert: (organization: {
        readonly id: string
        readonly name: string
        readonly description: string | null
        readonly creatorUuid: string
        readonly at: Date
      }) =>
        sql`
          insert into organizations (id, name, description, version, created_by, created_at, updated_at)
          values (${organization.id}, ${organization.name}, ${organization.description}, 0, ${organization.creatorUuid},
            ${organization.at}, ${organization.at})
        `.pipe(Effect.asVoid, Effect.orDie),
      /** Inside the caller's transaction: holds the organization until it ends, so changes to one organization run one at a time. */
      lock: (id: string) =>
        sql<{ readonly id: string }>`select id from organizations where id = ${id} for update`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      /** Raises the version by one and returns it: each event is one version. */
      nextVersion: (id: string) =>
        sql<{ readonly version: number }>`
          update organizations set version = version + 1 where id = ${id} returning version
        `.pipe(
          Effect.flatMap((rows) =>
            rows[0] === undefined ? Effect.dieMessage(`no organization ${id} to version`) : Effect.succeed(rows[0].version)
          ),
          Effect.orDie
        ),
      updateFields: (id: string, fields: { readonly name?: string | undefined; readonly description?: string | null | undefined }, at: Date) =>
        sql`
          update organizations set
            name = coalesce(${fields.name ?? null}, name),
            description = case when ${fields.description !== undefined} then ${fields.description ?? null} else description end,
            updated_at = ${at}
          where id = ${id}
        `.pipe(Effect.asVoid, Effect.orDie),
      setGovernance: (id: string, settings: GovernanceSettings, at: Date) =>
        sql`
          update organizations set role_changes_need_approval = ${settings.role_changes_need_approval},
            tag_changes_need_approval = ${settings.tag_changes_need_approval}, updated_at = ${at}
          where id = ${id}
        `.pipe(Effect.asVoid, Effect.orDie),
      find: (id: string) =>
        sql<OrganizationRow>`${selectOrganizations} where o.id = ${id}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toOrganization)),
          Effect.orDie
        ),
      /** The organizations where `identityUuid` is an active member, with its role, by name then id. */
      pageOf: (identityUuid: string, limit: number, after: Option.Option<OrganizationPosition>) =>
        sql<OrganizationRow & { readonly role: MembershipRole }>`
          select o.id, o.name, o.description, owner.identity_uuid as owner_uuid, o.version, o.created_at, o.updated_at,
            o.role_changes_need_approval, o.tag_changes_need_approval, mine.role
          from organization_members mine
          join organizations o on o.id = mine.organization_id
          join organization_members owner on owner.organization_id = o.id and owner.role = 'owner' and owner.status = 'active'
          where mine.identity_uuid = ${identityUuid} and mine.status = 'active'
            ${Option.match(after, { onNone: () => sql``, onSome: ([name, id]) => sql`and (o.name, o.id) > (${name}, ${id})` })}
          order by o.name, o.id
          limit ${limit + 1}
        `.pipe(
          Effect.map((rows) => rows.map((row) => ({ organization: toOrganization(row), role: row.role }))),
          Effect.orDie
        )
    }
  })
}) {}
