import { layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { inTransaction, TestDatabase } from "@platform/database"
import { Effect, Layer, Ref } from "effect"
import { expect } from "vitest"
import { StepUpRequired } from "../src/auth/stepUpErrors.ts"
import { IamConfig } from "../src/config.ts"
import { IdentitiesRepo } from "../src/identities/IdentitiesRepo.ts"
import { iamMigrations } from "../src/migrations.ts"
import { Members } from "../src/organizations/Members.ts"
import { MembersRepo } from "../src/organizations/MembersRepo.ts"
import { Memberships } from "../src/organizations/Memberships.ts"
import { Organizations } from "../src/organizations/Organizations.ts"
import { eventsOf, eventTypesOf } from "./support/iamEvents.ts"
import { knownIdentity } from "./support/identities.ts"
import { iamTestSettings } from "./support/IamTest.ts"

const Services = Layer.mergeAll(Organizations.Default, Members.Default, Memberships.Default, MembersRepo.Default, IdentitiesRepo.Default).pipe(
  Layer.provideMerge(Layer.succeed(IamConfig, iamTestSettings(0))),
  Layer.provideMerge(TestDatabase.layer(iamMigrations))
)

const addMember = (organizationId: string, identityUuid: string, addedBy: string) =>
  Effect.flatMap(MembersRepo, (members) =>
    members.add({ organizationId, identityUuid, role: "member", addedBy, at: new Date() }))

/** An organization owned by a fresh Carbon, with a fresh Carbon member added directly (invitations: invitations.test.ts). */
const organizationWithMember = Effect.gen(function*() {
  const owner = yield* knownIdentity("carbon", "Owner")
  const member = yield* knownIdentity("carbon", "Member")
  const { organization } = yield* Effect.flatMap(Organizations, (organizations) => organizations.create(owner, { name: "Rules" }))
  yield* addMember(organization.id, member.uuid, owner.uuid)
  return { owner, member, id: organization.id }
})

/** A step-up that counts how often it was spent. */
const countedStepUp = Effect.map(Ref.make(0), (spent) => ({ spent, confirm: Ref.update(spent, (count) => count + 1) }))

layer(Services)("organization rules", (it) => {
  it.effect("a role change is an authorization change: admins only, after step-up, never the owner's", () =>
    Effect.gen(function*() {
      const members = yield* Members
      const { id, member, owner } = yield* organizationWithMember
      const stepUp = yield* countedStepUp

      const notAdmin = yield* Effect.flip(members.changeRole(member, id, member.uuid, "admin", stepUp.confirm))
      expect(notAdmin).toMatchObject({ code: "organization_admin_required", status: 403 })
      const ownerRole = yield* Effect.flip(members.changeRole(owner, id, owner.uuid, "member", stepUp.confirm))
      expect(ownerRole).toMatchObject({ code: "owner_protected", status: 409 })
      const unchanged = yield* members.changeRole(owner, id, member.uuid, "member", stepUp.confirm)
      expect(unchanged.role).toBe("member")
      expect(yield* Ref.get(stepUp.spent)).toBe(0)

      const refused = yield* Effect.flip(
        members.changeRole(owner, id, member.uuid, "admin", new StepUpRequired({ message: "no token" }))
      )
      expect(refused).toMatchObject({ code: "step_up_required" })
      expect((yield* members.read(owner, id, member.uuid)).role).toBe("member")

      const promoted = yield* members.changeRole(owner, id, member.uuid, "admin", stepUp.confirm)
      expect(promoted.role).toBe("admin")
      yield* members.changeRole(owner, id, member.uuid, "member", stepUp.confirm)
      expect(yield* Ref.get(stepUp.spent)).toBe(2)
      const events = yield* eventsOf(id)
      expect(events.slice(2).map((event) => [event.type, event.aggregate_version])).toEqual([
        ["organization.membership.authorization_updated.v1", 3],
        ["organization.admin.promoted.v1", 4],
        ["organization.membership.authorization_updated.v1", 5],
        ["organization.admin.demoted.v1", 6]
      ])
      expect(events[2]!.data).toMatchObject({
        changed: ["role"],
        previous: { role: "member" },
        current: { members: [{ identity: { uuid: member.uuid }, role: "admin", status: "active" }] }
      })
    }))

  it.effect("ownership passes to a Carbon member after step-up; the previous owner stays an admin", () =>
    Effect.gen(function*() {
      const organizations = yield* Organizations
      const memberships = yield* Memberships
      const { id, member, owner } = yield* organizationWithMember
      const robot = yield* knownIdentity("silicon", "Robot")
      yield* addMember(id, robot.uuid, owner.uuid)
      const stepUp = yield* countedStepUp

      expect(yield* Effect.flip(organizations.transferOwnership(member, id, member.uuid, stepUp.confirm))).toMatchObject({
        code: "organization_owner_required"
      })
      expect(yield* Effect.flip(organizations.transferOwnership(owner, id, robot.uuid, stepUp.confirm))).toMatchObject({
        code: "carbon_required"
      })
      const without = yield* Effect.flip(
        organizations.transferOwnership(owner, id, member.uuid, new StepUpRequired({ message: "no token" }))
      )
      expect(without).toMatchObject({ code: "step_up_required" })
      expect(yield* eventTypesOf(id)).toEqual(["organization.created.v1", "organization.membership.created.v1"])

      const transferred = yield* organizations.transferOwnership(owner, id, member.uuid, stepUp.confirm)
      expect(transferred).toMatchObject({ role: "admin", organization: { owner_uuid: member.uuid, version: 6 } })
      expect(yield* Ref.get(stepUp.spent)).toBe(1)
      expect(yield* memberships.activeOrganizationsOf(owner.uuid)).toEqual([{ organization_id: id, name: "Rules", role: "admin" }])
      expect(yield* memberships.activeOrganizationsOf(member.uuid)).toEqual([{ organization_id: id, name: "Rules", role: "owner" }])
      const events = yield* eventsOf(id)
      expect(events.slice(2).map((event) => event.type)).toEqual([
        "organization.ownership_transferred.v1",
        "organization.membership.authorization_updated.v1",
        "organization.admin.promoted.v1",
        "organization.membership.authorization_updated.v1"
      ])
      expect(events[2]!.data).toMatchObject({
        changed: ["owner_uuid"],
        previous_owner_uuid: owner.uuid,
        current: { organization: { owner_uuid: member.uuid, version: 3 }, members: [{ role: "owner" }, { role: "admin" }] }
      })
    }))

  it.effect("members are removed by admins or leave themselves; Memberships forgets them", () =>
    Effect.gen(function*() {
      const members = yield* Members
      const memberships = yield* Memberships
      const { id, member, owner } = yield* organizationWithMember
      const other = yield* knownIdentity("carbon", "Other")
      yield* addMember(id, other.uuid, owner.uuid)

      expect(yield* Effect.flip(members.remove(member, id, other.uuid))).toMatchObject({ code: "organization_admin_required" })
      expect(yield* memberships.isActiveMember(member.uuid, id)).toBe(true)
      const left = yield* members.remove(member, id, member.uuid)
      expect(left).toMatchObject({ status: "removed", removed_at: expect.any(String) })
      expect(yield* memberships.isActiveMember(member.uuid, id)).toBe(false)
      expect(yield* memberships.activeOrganizationsOf(member.uuid)).toEqual([])
      expect(yield* Effect.flip(members.read(owner, id, member.uuid))).toMatchObject({ code: "member_not_found" })
      yield* members.remove(owner, id, other.uuid)
      expect(yield* Effect.flip(members.remove(owner, id, other.uuid))).toMatchObject({ code: "member_not_found" })
      const events = yield* eventsOf(id)
      expect(events.slice(2).map((event) => [event.type, event.actor_uuid])).toEqual([
        ["organization.membership.removed.v1", member.uuid],
        ["organization.membership.removed.v1", owner.uuid]
      ])
    }))

  it.effect("a change and its event commit together: a failed change writes no event, a failed event undoes the change", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const organizations = yield* Organizations
      const { id, owner } = yield* organizationWithMember

      // The change succeeds and its event is written, then the transaction around it fails.
      const failed = yield* inTransaction(sql)(
        Effect.zipRight(organizations.update(owner, id, { name: "Never" }), Effect.fail("later failure" as const))
      ).pipe(Effect.flip)
      expect(failed).toBe("later failure")
      expect((yield* organizations.read(owner, id)).organization).toMatchObject({ name: "Rules", version: 2 })
      expect(yield* eventTypesOf(id)).toEqual(["organization.created.v1", "organization.membership.created.v1"])

      // The event cannot be written (its version is taken): the change is undone with it.
      yield* sql`
        insert into iam_events (id, type, aggregate_type, aggregate_id, aggregate_version, occurred_at, data)
        values ('evt_squatter', 'organization.updated.v1', 'organization', ${id}, 3, now(), '{}'::jsonb)
      `
      const defect = yield* organizations.update(owner, id, { name: "Also never" }).pipe(Effect.sandbox, Effect.flip)
      expect(defect._tag).toBe("Die")
      expect((yield* organizations.read(owner, id)).organization).toMatchObject({ name: "Rules", version: 2 })
    }))
})
