import { SqlClient } from "@effect/sql"
import { randomToken } from "@platform/crypto"
import { inTransaction } from "@platform/database"
import { now } from "@platform/service"
import { Effect, Option } from "effect"
import type { AuthenticatedIdentity } from "../auth/CurrentIdentity.ts"
import { ApprovalRequired } from "../organizations/errors.ts"
import { membersData } from "../organizations/eventData.ts"
import { Members } from "../organizations/Members.ts"
import { MembersRepo } from "../organizations/MembersRepo.ts"
import type { Member } from "../organizations/Organization.ts"
import { OrganizationAccess } from "../organizations/OrganizationAccess.ts"
import { OrganizationEvents } from "../organizations/OrganizationEvents.ts"
import { TagLimitReached, TagNameTaken, TagNotFound } from "./errors.ts"
import { MAX_TAGS, type Tag } from "./Governance.ts"
import { TagsRepo } from "./TagsRepo.ts"

export interface TagFields {
  readonly name?: string | undefined
  /** Null or empty clears it. */
  readonly description?: string | null | undefined
}

const resourceData = (tag: Tag, changed: ReadonlyArray<string>, extra: Record<string, unknown> = {}) => () =>
  Effect.succeed({ changed, current: { resource: tag }, ...extra })

const sameSet = (left: ReadonlyArray<string>, right: ReadonlyArray<string>) =>
  left.length === right.length && left.every((id, index) => id === right[index])

/** An organization's tags (read by members, made and renamed by admins) and the tags its members carry. */
export class Tags extends Effect.Service<Tags>()("iam/Tags", {
  effect: Effect.gen(function*() {
    const transaction = inTransaction(yield* SqlClient.SqlClient)
    const tags = yield* TagsRepo
    const members = yield* Members
    const membersRepo = yield* MembersRepo
    const access = yield* OrganizationAccess
    const events = yield* OrganizationEvents

    const tagNotFound = (ids: ReadonlyArray<string>) =>
      new TagNotFound({ message: "The organization has no tag with this id.", details: { tag_ids: ids } })

    const nameFree = (organizationId: string, name: string, self?: string) =>
      Effect.flatMap(tags.findByName(organizationId, name), (found) =>
        Option.isSome(found) && found.value.id !== self
          ? Effect.fail(new TagNameTaken({ message: "Another tag of the organization has this name.", details: { tag_id: found.value.id } }))
          : Effect.void)

    /** The distinct ids, sorted, when every one is a tag of the organization. */
    const validTagIds = (organizationId: string, ids: ReadonlyArray<string>) =>
      Effect.gen(function*() {
        const distinct = [...new Set(ids)].sort()
        const unknown = yield* tags.unknownOf(organizationId, distinct)
        return unknown.length > 0 ? yield* tagNotFound(unknown) : distinct
      })

    /**
     * Gives the member exactly `tagIds` and writes membership.updated (silicon.updated for a Silicon,
     * as silicon.created stands for membership.created), inside the caller's transaction.
     */
    const applyTags = (actorUuid: string, organizationId: string, member: Member, tagIds: ReadonlyArray<string>, extra: Record<string, unknown> = {}) =>
      Effect.gen(function*() {
        const updated = yield* membersRepo.setTags(organizationId, member.identity.uuid, tagIds, yield* now)
        yield* events.publish(
          organizationId,
          actorUuid,
          member.identity.kind === "silicon" ? "organization.silicon.updated.v1" : "organization.membership.updated.v1",
          membersData([updated], ["tags"], { previous: { tags: member.tags }, ...extra })
        )
        return updated
      })

    return {
      validTagIds,
      applyTags,
      sameSet,
      list: (actor: AuthenticatedIdentity, organizationId: string) =>
        Effect.zipRight(access.read(organizationId, actor.uuid, "member"), Effect.map(tags.listOf(organizationId), (items) => ({ items }))),
      create: (actor: AuthenticatedIdentity, organizationId: string, fields: { readonly name: string; readonly description?: string | null | undefined }) =>
        Effect.gen(function*() {
          yield* access.change(organizationId, actor.uuid, "admin")
          if ((yield* tags.countOf(organizationId)) >= MAX_TAGS) {
            return yield* new TagLimitReached({ message: `An organization has at most ${MAX_TAGS} tags.`, details: { limit: MAX_TAGS } })
          }
          yield* nameFree(organizationId, fields.name)
          const at = (yield* now).toISOString()
          const tag: Tag = {
            id: randomToken("tag_", 16),
            organization_id: organizationId,
            name: fields.name,
            description: fields.description === undefined || fields.description === "" ? null : fields.description,
            created_at: at,
            updated_at: at
          }
          yield* tags.insert(tag, actor.uuid)
          yield* events.publish(organizationId, actor.uuid, "organization.tag_created.v1", resourceData(tag, ["name", "description"]))
          return tag
        }).pipe(transaction),
      /** A new name or description (admins); a patch that changes nothing makes no version. */
      update: (actor: AuthenticatedIdentity, organizationId: string, tagId: string, fields: TagFields) =>
        Effect.gen(function*() {
          yield* access.change(organizationId, actor.uuid, "admin")
          const before = yield* Effect.flatMap(tags.find(organizationId, tagId), Option.match({
            onNone: () => Effect.fail(tagNotFound([tagId])),
            onSome: Effect.succeed
          }))
          const description = fields.description === "" ? null : fields.description
          const changed = [
            ...(fields.name !== undefined && fields.name !== before.name ? ["name"] : []),
            ...(description !== undefined && description !== before.description ? ["description"] : [])
          ]
          if (changed.length === 0) return before
          if (fields.name !== undefined) yield* nameFree(organizationId, fields.name, tagId)
          const tag: Tag = {
            ...before,
            name: fields.name ?? before.name,
            description: description === undefined ? before.description : description,
            updated_at: (yield* now).toISOString()
          }
          yield* tags.update(tag)
          yield* events.publish(
            organizationId,
            actor.uuid,
            "organization.tag_updated.v1",
            resourceData(tag, changed, { previous: { name: before.name, description: before.description } })
          )
          return tag
        }).pipe(transaction),
      /** Replaces a member's tags (admins), unless the organization's tag changes need approval (409 approval_required). */
      setMemberTags: (actor: AuthenticatedIdentity, organizationId: string, uuid: string, tagIds: ReadonlyArray<string>) =>
        Effect.gen(function*() {
          yield* access.change(organizationId, actor.uuid, "admin")
          const member = yield* members.activeMember(organizationId, uuid)
          const next = yield* validTagIds(organizationId, tagIds)
          if (sameSet(member.tags, next)) return member
          if ((yield* members.governanceOf(organizationId)).tag_changes_need_approval) {
            return yield* new ApprovalRequired({
              message: "This organization's tag changes need approval: request the change instead.",
              hint: `POST /api/v1/organizations/${organizationId}/approval-requests`,
              details: { kind: "tag_change" }
            })
          }
          return yield* applyTags(actor.uuid, organizationId, member, next)
        }).pipe(transaction)
    }
  }),
  dependencies: [TagsRepo.Default, Members.Default, MembersRepo.Default, OrganizationAccess.Default, OrganizationEvents.Default]
}) {}
