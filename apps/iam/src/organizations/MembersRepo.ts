import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import type { IdentityKind } from "../identities/Identity.ts"
import type { GrantedRole, Member, MembershipRole } from "./Organization.ts"

interface MemberRow {
  readonly organization_id: string
  readonly uuid: string
  readonly handle: string
  readonly kind: IdentityKind
  readonly display_name: string
  readonly role: MembershipRole
  readonly tags: ReadonlyArray<string>
  readonly status: Member["status"]
  readonly joined_at: Date
  readonly updated_at: Date
  readonly removed_at: Date | null
}

const toMember = (row: MemberRow): Member => ({
  organization_id: row.organization_id,
  identity: { uuid: row.uuid, id: row.handle, kind: row.kind, display_name: row.display_name },
  role: row.role,
  tags: row.tags,
  status: row.status,
  joined_at: row.joined_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
  removed_at: row.removed_at?.toISOString() ?? null
})

/** A page position in an organization's members: by joining time, then uuid (milliseconds since the epoch). */
export type MemberPosition = readonly [joinedAtMillis: number, uuid: string]

/** Organization members, Carbons and Silicons, with their identity as IAM's projection has it. */
export class MembersRepo extends Effect.Service<MembersRepo>()("iam/MembersRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const selectMembers = sql`
      select m.organization_id, i.uuid, i.handle, i.kind, i.display_name, m.role, m.status, m.joined_at, m.updated_at, m.removed_at,
        coalesce((
          select json_agg(t.tag_id order by t.tag_id) from organization_member_tags t
          where t.organization_id = m.organization_id and t.identity_uuid = m.identity_uuid
        ), '[]'::json) as tags
      from organization_members m join identities i on i.uuid = m.identity_uuid
    `

    const find = (organizationId: string, identityUuid: string) =>
      sql<MemberRow>`${selectMembers} where m.organization_id = ${organizationId} and m.identity_uuid = ${identityUuid}`.pipe(
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toMember)),
        Effect.orDie
      )

    /** The member as it is now, after a change in this transaction. */
    const read = (organizationId: string, identityUuid: string) =>
      Effect.flatMap(find(organizationId, identityUuid), Option.match({
        onNone: () => Effect.dieMessage(`no member ${identityUuid} of ${organizationId}`),
        onSome: Effect.succeed
      }))

    return {
      find,
      read,
      /** Who added the member (for a Silicon created in the organization: its custodian then). */
      addedBy: (organizationId: string, identityUuid: string) =>
        sql<{ readonly added_by: string }>`
          select added_by from organization_members where organization_id = ${organizationId} and identity_uuid = ${identityUuid}
        `.pipe(Effect.map((rows) => rows[0]?.added_by ?? null), Effect.orDie),
      /** The active member's role, if it is one. */
      roleOf: (organizationId: string, identityUuid: string) =>
        sql<{ readonly role: MembershipRole }>`
          select role from organization_members
          where organization_id = ${organizationId} and identity_uuid = ${identityUuid} and status = 'active'
        `.pipe(Effect.map((rows) => Option.fromNullable(rows[0]?.role)), Effect.orDie),
      /** A new member, or a removed one back (its row reactivated with the new role); the member as it is now. */
      add: (member: {
        readonly organizationId: string
        readonly identityUuid: string
        readonly role: MembershipRole
        readonly addedBy: string
        readonly at: Date
      }) =>
        Effect.zipRight(
          sql`
            insert into organization_members (organization_id, identity_uuid, role, status, added_by, joined_at, updated_at)
            values (${member.organizationId}, ${member.identityUuid}, ${member.role}, 'active', ${member.addedBy}, ${member.at}, ${member.at})
            on conflict (organization_id, identity_uuid) do update set role = excluded.role, status = 'active',
              added_by = excluded.added_by, joined_at = excluded.joined_at, updated_at = excluded.updated_at, removed_at = null
          `.pipe(Effect.orDie),
          read(member.organizationId, member.identityUuid)
        ),
      setRole: (organizationId: string, identityUuid: string, role: MembershipRole | GrantedRole, at: Date) =>
        Effect.zipRight(
          sql`
            update organization_members set role = ${role}, updated_at = ${at}
            where organization_id = ${organizationId} and identity_uuid = ${identityUuid} and status = 'active'
          `.pipe(Effect.orDie),
          read(organizationId, identityUuid)
        ),
      /** A removed member carries no tags: a return starts without them. */
      remove: (organizationId: string, identityUuid: string, at: Date) =>
        Effect.zipRight(
          sql`
            delete from organization_member_tags where organization_id = ${organizationId} and identity_uuid = ${identityUuid}
          `.pipe(
            Effect.zipRight(sql`
            update organization_members set status = 'removed', removed_at = ${at}, updated_at = ${at}
            where organization_id = ${organizationId} and identity_uuid = ${identityUuid} and status = 'active'
          `),
            Effect.orDie
          ),
          read(organizationId, identityUuid)
        ),
      /** Replaces the member's tags with `tagIds` (tags of this organization, checked by the caller). */
      setTags: (organizationId: string, identityUuid: string, tagIds: ReadonlyArray<string>, at: Date) =>
        Effect.zipRight(
          sql`
            delete from organization_member_tags where organization_id = ${organizationId} and identity_uuid = ${identityUuid}
          `.pipe(
            Effect.zipRight(Effect.forEach(tagIds, (tagId) =>
              sql`
                insert into organization_member_tags (organization_id, identity_uuid, tag_id, assigned_at)
                values (${organizationId}, ${identityUuid}, ${tagId}, ${at})
              `, { discard: true })),
            Effect.zipRight(sql`
              update organization_members set updated_at = ${at}
              where organization_id = ${organizationId} and identity_uuid = ${identityUuid}
            `),
            Effect.orDie
          ),
          read(organizationId, identityUuid)
        ),
      /** An organization's active members, oldest first. */
      pageOf: (organizationId: string, limit: number, after: Option.Option<MemberPosition>) =>
        sql<MemberRow>`
          ${selectMembers}
          where m.organization_id = ${organizationId} and m.status = 'active'
            ${
          Option.match(after, {
            onNone: () => sql``,
            onSome: ([millis, uuid]) => sql`and (m.joined_at, m.identity_uuid) > (${new Date(millis)}, ${uuid})`
          })
        }
          order by m.joined_at, m.identity_uuid
          limit ${limit + 1}
        `.pipe(Effect.map((rows) => rows.map(toMember)), Effect.orDie),
      /** Every organization where the identity is an active member, with its name and the identity's role. */
      activeOrganizationsOf: (identityUuid: string) =>
        sql<{ readonly organization_id: string; readonly name: string; readonly role: MembershipRole }>`
          select o.id as organization_id, o.name, m.role
          from organization_members m join organizations o on o.id = m.organization_id
          where m.identity_uuid = ${identityUuid} and m.status = 'active'
          order by o.name, o.id
        `.pipe(Effect.orDie)
    }
  })
}) {}
