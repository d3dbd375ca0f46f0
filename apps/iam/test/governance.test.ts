import { layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { FakeAccounts } from "@platform/accounts-identity-api"
import { Effect, Layer } from "effect"
import { expect } from "vitest"
import { AccountChangesFollower } from "../src/account-changes/AccountChangesFollower.ts"
import { MembersRepo } from "../src/organizations/MembersRepo.ts"
import type { MembershipRole } from "../src/organizations/Organization.ts"
import { IamSessions } from "../src/sessions/IamSessions.ts"
import { accountsHold, newCarbon } from "./support/carbons.ts"
import { answerOf } from "./support/http.ts"
import { eventsOf } from "./support/iamEvents.ts"
import { iamClient, IamTest } from "./support/IamTest.ts"
import { newIdentity } from "./support/identities.ts"
import { signedInAs, signedInCarbon } from "./support/signedIn.ts"
import { stepUp } from "./support/stepUp.ts"

const Iam = Layer.mergeAll(IamSessions.Default, MembersRepo.Default, AccountChangesFollower.Default).pipe(Layer.provideMerge(IamTest()))

/** An organization owned by a signed-in Carbon accounts holds (it can step up), with signed-in Carbons added at `roles`. */
const organizationWith = (...roles: ReadonlyArray<MembershipRole>) =>
  Effect.gen(function*() {
    const carbon = yield* accountsHold(newCarbon("owner"))
    const owner = yield* signedInCarbon(carbon)
    const { organization } = yield* owner.client.organizations.create({ payload: { name: "Governed" } })
    const repo = yield* MembersRepo
    const others = []
    for (const role of roles) {
      const other = yield* signedInAs(newIdentity("carbon", role === "admin" ? "Admin" : "Member"))
      yield* repo.add({ organizationId: organization.id, identityUuid: other.identity.uuid, role, addedBy: owner.identity.uuid, at: new Date() })
      others.push(other)
    }
    return { owner, ownerEmail: carbon.verified_emails[0]!, id: organization.id, others }
  })

const steppedUp = (bearer: string, token: string) => iamClient({ authorization: `Bearer ${bearer}`, "x-step-up-token": token })

const typesAndVersions = (organizationId: string, from: number) =>
  Effect.map(eventsOf(organizationId), (events) => events.slice(from).map((event) => [event.type, event.aggregate_version]))

layer(Iam, { excludeTestServices: true })("organization governance over HTTP", (it) => {
  it.effect("with approval on, a role change is a request: the requester cannot decide it, the owner's approval applies it", () =>
    Effect.gen(function*() {
      const { id, others: [bob, carl], owner, ownerEmail } = yield* organizationWith("admin", "member")
      const governed = yield* owner.client.organizations.setGovernance({
        path: { organization_id: id },
        payload: { role_changes_need_approval: true }
      })
      expect(governed.organization.governance).toEqual({ role_changes_need_approval: true, tag_changes_need_approval: false })
      expect(yield* Effect.flip(bob!.client.organizations.setGovernance({ path: { organization_id: id }, payload: {} }))).toMatchObject({
        code: "organization_owner_required"
      })
      const target = { organization_id: id, uuid: carl!.identity.uuid }
      expect(yield* Effect.flip(bob!.client.members.changeRole({ path: target, payload: { role: "admin" } }))).toMatchObject({
        code: "approval_required",
        status: 409,
        details: { kind: "role_change" }
      })

      const requested = yield* bob!.client.approvals.request({
        path: { organization_id: id },
        payload: { kind: "role_change", member_uuid: carl!.identity.uuid, role: "admin" }
      })
      expect(requested).toMatchObject({ id: expect.stringMatching(/^apr_/), status: "pending", role: "admin", tag_ids: null, requested_by_uuid: bob!.identity.uuid })
      expect(Date.parse(requested.expires_at) - Date.parse(requested.created_at)).toBe(7 * 24 * 3600 * 1000)
      const request = { path: { organization_id: id }, payload: { kind: "role_change" as const, member_uuid: carl!.identity.uuid, role: "admin" as const } }
      expect(yield* Effect.flip(bob!.client.approvals.request(request))).toMatchObject({
        code: "approval_request_exists",
        details: { request_id: requested.id }
      })
      expect(yield* Effect.flip(carl!.client.approvals.request(request))).toMatchObject({ code: "organization_admin_required" })
      expect(yield* Effect.flip(bob!.client.approvals.request({ ...request, payload: { ...request.payload, role: "member" } }))).toMatchObject({
        code: "nothing_to_change"
      })
      expect(yield* Effect.flip(bob!.client.approvals.request({ ...request, payload: { ...request.payload, member_uuid: owner.identity.uuid } })))
        .toMatchObject({ code: "owner_protected" })

      const decision = (choice: "approve" | "reject") => ({ path: { organization_id: id, request_id: requested.id }, payload: { decision: choice } })
      expect(yield* Effect.flip(bob!.client.approvals.decide(decision("approve")))).toMatchObject({ code: "approval_by_party_refused", status: 403 })
      expect(yield* Effect.flip(carl!.client.approvals.decide(decision("approve")))).toMatchObject({ code: "organization_admin_required" })
      expect(yield* Effect.flip(owner.client.approvals.decide(decision("approve")))).toMatchObject({ code: "step_up_required" })
      expect(yield* Effect.flip(owner.client.approvals.decide({ ...decision("approve"), path: { organization_id: id, request_id: "apr_nope" } })))
        .toMatchObject({ code: "approval_request_not_found" })
      expect((yield* owner.client.approvals.read({ path: { organization_id: id, request_id: requested.id } })).status).toBe("pending")

      const token = (yield* stepUp(owner.bearer, ownerEmail, "organization.authorization_change", id)).step_up_token
      const approved = yield* Effect.flatMap(steppedUp(owner.bearer, token), (client) => client.approvals.decide(decision("approve")))
      expect(approved).toMatchObject({ status: "approved", decided_by_uuid: owner.identity.uuid, decided_at: expect.any(String) })
      expect((yield* owner.client.members.read({ path: target })).role).toBe("admin")
      expect(yield* Effect.flip(owner.client.approvals.decide(decision("reject")))).toMatchObject({
        code: "approval_request_not_pending",
        details: { status: "approved" }
      })
      const listed = yield* owner.client.approvals.list({ path: { organization_id: id }, urlParams: {} })
      expect(listed).toEqual({ items: [approved], next_cursor: null })

      expect(yield* typesAndVersions(id, 2)).toEqual([
        ["organization.updated.v1", 3],
        ["organization.role_change.requested.v1", 4],
        ["organization.approval.decided.v1", 5],
        ["organization.membership.authorization_updated.v1", 6],
        ["organization.admin.promoted.v1", 7]
      ])
      const events = yield* eventsOf(id)
      expect(events[2]!.data).toMatchObject({ changed: ["governance"] })
      expect(events[3]!.data).toEqual({ changed: ["role"], current: { resource: requested } })
      expect(events[4]!.data).toEqual({ changed: ["status"], decision: "approved", current: { resource: approved } })
      expect(events[5]).toMatchObject({
        actor_uuid: owner.identity.uuid,
        data: { approval_request_id: requested.id, previous: { role: "member" }, current: { members: [{ identity: { uuid: carl!.identity.uuid }, role: "admin" }] } }
      })
    }))

  it.effect("tags: created and renamed by admins, read by members, every bad input typed; a tag change with approval", () =>
    Effect.gen(function*() {
      const { id, others: [bob, carl], owner } = yield* organizationWith("admin", "member")
      const path = { organization_id: id }
      const ops = yield* bob!.client.tags.create({ path, payload: { name: "Ops", description: "Operations" } })
      expect(ops).toMatchObject({ id: expect.stringMatching(/^tag_/), organization_id: id, name: "Ops", description: "Operations" })
      const oncall = yield* owner.client.tags.create({ path, payload: { name: "On call" } })
      expect(yield* Effect.flip(owner.client.tags.create({ path, payload: { name: "OPS" } }))).toMatchObject({
        code: "tag_name_taken",
        status: 409,
        details: { tag_id: ops.id }
      })
      expect(yield* Effect.flip(carl!.client.tags.create({ path, payload: { name: "Mine" } }))).toMatchObject({ code: "organization_admin_required" })
      expect(yield* Effect.flip(owner.client.tags.create({ path: { organization_id: "org_nope" }, payload: { name: "X" } }))).toMatchObject({
        code: "organization_not_found"
      })
      const blank = yield* answerOf(`/api/v1/organizations/${id}/tags`, {
        method: "POST",
        headers: { authorization: `Bearer ${owner.bearer}`, "content-type": "application/json" },
        body: JSON.stringify({ name: " ", description: "x".repeat(501) })
      })
      expect([blank.status, blank.body.error.code]).toEqual([422, "validation_failed"])
      const renamed = yield* owner.client.tags.update({ path: { ...path, tag_id: ops.id }, payload: { name: "Operations", description: null } })
      expect(renamed).toMatchObject({ name: "Operations", description: null })
      expect(yield* owner.client.tags.update({ path: { ...path, tag_id: ops.id }, payload: { name: "Operations" } })).toEqual(renamed)
      expect(yield* Effect.flip(owner.client.tags.update({ path: { ...path, tag_id: ops.id }, payload: { name: "on CALL" } }))).toMatchObject({
        code: "tag_name_taken"
      })
      expect(yield* Effect.flip(owner.client.tags.update({ path: { ...path, tag_id: "tag_nope" }, payload: { name: "Y" } }))).toMatchObject({
        code: "tag_not_found",
        status: 404
      })
      expect((yield* carl!.client.tags.list({ path })).items.map((tag) => tag.name)).toEqual(["On call", "Operations"])

      // Direct assignment while no approval is asked.
      const target = { organization_id: id, uuid: carl!.identity.uuid }
      expect(yield* Effect.flip(bob!.client.tags.setMemberTags({ path: target, payload: { tag_ids: [ops.id, "tag_nope"] } }))).toMatchObject({
        code: "tag_not_found",
        details: { tag_ids: ["tag_nope"] }
      })
      expect(yield* Effect.flip(carl!.client.tags.setMemberTags({ path: target, payload: { tag_ids: [] } }))).toMatchObject({
        code: "organization_admin_required"
      })
      expect(yield* Effect.flip(bob!.client.tags.setMemberTags({ path: { organization_id: id, uuid: "nobody" }, payload: { tag_ids: [] } })))
        .toMatchObject({ code: "member_not_found" })
      const tagged = yield* bob!.client.tags.setMemberTags({ path: target, payload: { tag_ids: [ops.id, ops.id] } })
      expect(tagged.tags).toEqual([ops.id])
      expect((yield* owner.client.members.read({ path: target })).tags).toEqual([ops.id])

      // With approval on: the direct route refuses, a rejected request changes nothing, an approved one applies.
      yield* owner.client.organizations.setGovernance({ path, payload: { tag_changes_need_approval: true } })
      const both = [oncall.id, ops.id].sort()
      expect(yield* Effect.flip(bob!.client.tags.setMemberTags({ path: target, payload: { tag_ids: both } }))).toMatchObject({
        code: "approval_required",
        details: { kind: "tag_change" }
      })
      const asked = { path, payload: { kind: "tag_change" as const, member_uuid: carl!.identity.uuid, tag_ids: [oncall.id, ops.id] } }
      expect(yield* Effect.flip(bob!.client.approvals.request({ ...asked, payload: { ...asked.payload, tag_ids: [ops.id] } }))).toMatchObject({
        code: "nothing_to_change"
      })
      const first = yield* bob!.client.approvals.request(asked)
      expect(first.tag_ids).toEqual(both)
      const rejected = yield* owner.client.approvals.decide({ path: { ...path, request_id: first.id }, payload: { decision: "reject" } })
      expect(rejected.status).toBe("rejected")
      expect((yield* owner.client.members.read({ path: target })).tags).toEqual([ops.id])
      const second = yield* owner.client.approvals.request(asked)
      const approved = yield* bob!.client.approvals.decide({ path: { ...path, request_id: second.id }, payload: { decision: "approve" } })
      expect(approved).toMatchObject({ status: "approved", decided_by_uuid: bob!.identity.uuid })
      expect((yield* owner.client.members.read({ path: target })).tags).toEqual(both)

      const events = yield* eventsOf(id)
      expect(events.slice(2).map((event) => [event.type, event.aggregate_version])).toEqual([
        ["organization.tag_created.v1", 3],
        ["organization.tag_created.v1", 4],
        ["organization.tag_updated.v1", 5],
        ["organization.membership.updated.v1", 6],
        ["organization.updated.v1", 7],
        ["organization.tag_change.requested.v1", 8],
        ["organization.approval.decided.v1", 9],
        ["organization.tag_change.requested.v1", 10],
        ["organization.approval.decided.v1", 11],
        ["organization.membership.updated.v1", 12]
      ])
      expect(events[2]!.data).toEqual({ changed: ["name", "description"], current: { resource: ops } })
      expect(events[4]!.data).toEqual({
        changed: ["name", "description"],
        previous: { name: "Ops", description: "Operations" },
        current: { resource: renamed }
      })
      expect(events[5]!.data).toMatchObject({ changed: ["tags"], previous: { tags: [] }, current: { members: [{ tags: [ops.id] }] } })
      expect(events[8]!.data).toMatchObject({ decision: "rejected", current: { resource: { id: first.id, status: "rejected" } } })
      expect(events[11]!.data).toMatchObject({
        changed: ["tags"],
        approval_request_id: second.id,
        previous: { tags: [ops.id] },
        current: { members: [{ identity: { uuid: carl!.identity.uuid }, tags: both }] }
      })
    }))

  it.effect("tags stop at 100 per organization", () =>
    Effect.gen(function*() {
      const { id, owner } = yield* organizationWith()
      const sql = yield* SqlClient.SqlClient
      yield* sql`
        insert into organization_tags (id, organization_id, name, name_key, description, created_by, created_at, updated_at)
        select 'tag_filler' || n || ${id}, ${id}, 'filler ' || n, 'filler ' || n, null, ${owner.identity.uuid}, now(), now()
        from generate_series(1, 100) as n
      `
      expect(yield* Effect.flip(owner.client.tags.create({ path: { organization_id: id }, payload: { name: "One more" } }))).toMatchObject({
        code: "tag_limit_reached",
        status: 409,
        details: { limit: 100 }
      })
    }))

  it.effect("an approval request past its 7 days reads expired, cannot be decided (410), and frees its place for a new one", () =>
    Effect.gen(function*() {
      const { id, others: [bob, carl], owner, ownerEmail } = yield* organizationWith("admin", "member")
      yield* owner.client.organizations.setGovernance({ path: { organization_id: id }, payload: { role_changes_need_approval: true } })
      const request = { path: { organization_id: id }, payload: { kind: "role_change" as const, member_uuid: carl!.identity.uuid, role: "admin" as const } }
      const requested = yield* bob!.client.approvals.request(request)
      // The service runs on the live clock here: the request's 7 days are ended in its row.
      const sql = yield* SqlClient.SqlClient
      yield* sql`update organization_approval_requests set expires_at = now() - interval '1 second' where id = ${requested.id}`

      const path = { organization_id: id, request_id: requested.id }
      expect(yield* owner.client.approvals.read({ path })).toMatchObject({ id: requested.id, status: "expired", decided_at: null })
      const token = (yield* stepUp(owner.bearer, ownerEmail, "organization.authorization_change", id)).step_up_token
      const client = yield* steppedUp(owner.bearer, token)
      expect(yield* Effect.flip(client.approvals.decide({ path, payload: { decision: "approve" } }))).toMatchObject({
        code: "approval_request_expired",
        status: 410
      })
      expect((yield* owner.client.members.read({ path: { organization_id: id, uuid: carl!.identity.uuid } })).role).toBe("member")

      const again = yield* bob!.client.approvals.request(request)
      expect(again).toMatchObject({ status: "pending" })
      expect(again.id).not.toBe(requested.id)
    }))

  it.effect("trust: a default level and rules about other organizations, identities and domains, managed by admins", () =>
    Effect.gen(function*() {
      const { id, others: [bob, carl], owner } = yield* organizationWith("admin", "member")
      const path = { organization_id: id }
      expect(yield* carl!.client.trust.read({ path })).toEqual({ organization_id: id, default_level: "neutral", rules: [] })
      expect(yield* Effect.flip(carl!.client.trust.setDefault({ path, payload: { level: "blocked" } }))).toMatchObject({
        code: "organization_admin_required"
      })
      expect((yield* bob!.client.trust.setDefault({ path, payload: { level: "blocked" } })).default_level).toBe("blocked")
      yield* bob!.client.trust.setDefault({ path, payload: { level: "blocked" } })

      const partner = yield* owner.client.trust.createRule({
        path,
        payload: { subject: { kind: "organization", value: "org_partner" }, level: "trusted", note: "Our supplier" }
      })
      expect(partner).toMatchObject({ id: expect.stringMatching(/^trr_/), status: "active", level: "trusted", archived_at: null })
      const lowered = yield* answerOf(`/api/v1/organizations/${id}/trust/rules`, {
        method: "POST",
        headers: { authorization: `Bearer ${bob!.bearer}`, "content-type": "application/json" },
        body: JSON.stringify({ subject: { kind: "email_domain", value: " Example.COM " }, level: "neutral" })
      })
      expect([lowered.status, lowered.body.subject]).toEqual([201, { kind: "email_domain", value: "example.com" }])
      const domain = yield* carl!.client.trust.readRule({ path: { ...path, rule_id: lowered.body.id } })
      expect(yield* Effect.flip(bob!.client.trust.createRule({
        path,
        payload: { subject: { kind: "email_domain", value: "example.com" }, level: "blocked" }
      }))).toMatchObject({ code: "trust_rule_exists", status: 409, details: { rule_id: domain.id } })
      expect(yield* Effect.flip(carl!.client.trust.createRule({
        path,
        payload: { subject: { kind: "identity", value: "abc" }, level: "blocked" }
      }))).toMatchObject({ code: "organization_admin_required" })
      for (const subject of [{ kind: "email_domain", value: "not a domain" }, { kind: "organization", value: id }, { kind: "planet", value: "x" }]) {
        const bad = yield* answerOf(`/api/v1/organizations/${id}/trust/rules`, {
          method: "POST",
          headers: { authorization: `Bearer ${owner.bearer}`, "content-type": "application/json" },
          body: JSON.stringify({ subject, level: "trusted" })
        })
        expect([bad.status, bad.body.error.code]).toEqual([422, "validation_failed"])
      }

      const rule = { ...path, rule_id: partner.id }
      const neutral = yield* bob!.client.trust.updateRule({ path: rule, payload: { level: "neutral", note: "" } })
      expect(neutral).toMatchObject({ level: "neutral", note: null, subject: partner.subject })
      expect(yield* bob!.client.trust.updateRule({ path: rule, payload: { level: "neutral" } })).toEqual(neutral)
      expect(yield* Effect.flip(bob!.client.trust.updateRule({ path: { ...path, rule_id: "trr_nope" }, payload: { level: "blocked" } })))
        .toMatchObject({ code: "trust_rule_not_found", status: 404 })
      const archived = yield* owner.client.trust.archiveRule({ path: rule })
      expect(archived).toMatchObject({ status: "archived", archived_at: expect.any(String) })
      expect(yield* Effect.flip(owner.client.trust.archiveRule({ path: rule }))).toMatchObject({ code: "trust_rule_archived", status: 409 })
      expect(yield* Effect.flip(owner.client.trust.updateRule({ path: rule, payload: { level: "trusted" } }))).toMatchObject({
        code: "trust_rule_archived"
      })
      expect(yield* carl!.client.trust.readRule({ path: rule })).toEqual(archived)
      expect(yield* carl!.client.trust.read({ path })).toEqual({ organization_id: id, default_level: "blocked", rules: [domain] })
      // The archived rule's subject is free again.
      yield* owner.client.trust.createRule({ path, payload: { subject: partner.subject, level: "blocked" } })

      const events = yield* eventsOf(id)
      expect(events.slice(2).map((event) => [event.type, event.aggregate_version])).toEqual([
        ["organization.trust.default_updated.v1", 3],
        ["organization.trust.rule_created.v1", 4],
        ["organization.trust.rule_created.v1", 5],
        ["organization.trust.rule_updated.v1", 6],
        ["organization.trust.rule_archived.v1", 7],
        ["organization.trust.rule_created.v1", 8]
      ])
      expect(events[2]!.data).toEqual({
        changed: ["default_level"],
        previous: { default_level: "neutral" },
        current: { resource: { organization_id: id, default_level: "blocked" } }
      })
      expect(events[3]!.data).toEqual({ changed: ["subject", "level", "note"], current: { resource: partner } })
      expect(events[5]!.data).toEqual({ changed: ["level", "note"], previous: { level: "trusted", note: "Our supplier" }, current: { resource: neutral } })
      expect(events[6]!.data).toEqual({ changed: ["status"], current: { resource: archived } })
    }))

  it.effect("a Silicon or its custodian asks for a token rotation, the admin's rotation answers it; accounts' changes reach the members' organizations", () =>
    Effect.gen(function*() {
      const { id, others: [carl], owner, ownerEmail } = yield* organizationWith("member")
      const handle = `robot${crypto.randomUUID().slice(0, 8)}`
      const created = yield* owner.client.organizationSilicons.create({ path: { organization_id: id }, payload: { id: handle, display_name: "Robot" } })
      const uuid = created.member.identity.uuid
      const robot = yield* signedInAs({ uuid, id: `si:${handle}`, kind: "silicon", display_name: "Robot", status: "active" })
      const path = { organization_id: id, uuid }

      expect(yield* Effect.flip(carl!.client.organizationSilicons.requestRotation({ path }))).toMatchObject({
        code: "silicon_custodian_required",
        status: 403
      })
      expect(yield* Effect.flip(robot.client.organizationSilicons.requestRotation({ path: { organization_id: id, uuid: carl!.identity.uuid } })))
        .toMatchObject({ code: "member_not_found" })
      const requested = yield* robot.client.organizationSilicons.requestRotation({ path })
      expect(requested).toMatchObject({ id: expect.stringMatching(/^rrq_/), silicon_uuid: uuid, requested_by_uuid: uuid, status: "pending" })
      expect(yield* Effect.flip(owner.client.organizationSilicons.requestRotation({ path }))).toMatchObject({
        code: "rotation_request_exists",
        details: { request_id: requested.id }
      })
      const token = (yield* stepUp(owner.bearer, ownerEmail, "silicon.rotate_token", uuid)).step_up_token
      const rotated = yield* Effect.flatMap(steppedUp(owner.bearer, token), (client) => client.organizationSilicons.rotateToken({ path }))
      const again = yield* owner.client.organizationSilicons.requestRotation({ path })
      expect(again).toMatchObject({ requested_by_uuid: owner.identity.uuid, status: "pending" })

      // The owner and admins list them, oldest first, by status and a page at a time; members may not.
      const list = (urlParams: { readonly status?: "pending" | "completed"; readonly limit?: number; readonly cursor?: string }) =>
        owner.client.organizationSilicons.listRotationRequests({ path: { organization_id: id }, urlParams })
      const all = yield* list({})
      expect(all.items.map((item) => [item.id, item.status])).toEqual([[requested.id, "completed"], [again.id, "pending"]])
      expect(all.items[0]!.completed_at).not.toBeNull()
      expect(all.next_cursor).toBeNull()
      expect((yield* list({ status: "pending" })).items.map((item) => item.id)).toEqual([again.id])
      const first = yield* list({ limit: 1 })
      expect(first.items.map((item) => item.id)).toEqual([requested.id])
      expect((yield* list({ limit: 1, cursor: first.next_cursor! })).items.map((item) => item.id)).toEqual([again.id])
      expect(yield* Effect.flip(list({ cursor: "not-a-cursor" }))).toMatchObject({ code: "invalid_cursor", status: 400 })
      expect(yield* Effect.flip(carl!.client.organizationSilicons.listRotationRequests({ path: { organization_id: id }, urlParams: {} })))
        .toMatchObject({ code: "organization_admin_required", status: 403 })

      // Accounts renames the owner and the Silicon; IAM's follower writes one event per organization of each.
      const accounts = yield* FakeAccounts
      yield* accounts.put({ ...newCarbon("owner"), uuid: owner.identity.uuid, id: owner.identity.id, display_name: "Owner Renamed" })
      yield* accounts.put({ uuid, id: `si:${handle}`, kind: "silicon", display_name: "Robot Two", status: "active" })
      yield* Effect.flatMap(AccountChangesFollower, (follower) => follower.catchUp)

      const events = yield* eventsOf(id)
      expect(events.slice(2).map((event) => [event.type, event.aggregate_version, event.actor_uuid])).toEqual([
        ["organization.silicon.created.v1", 3, owner.identity.uuid],
        ["organization.silicon.rotation_requested.v1", 4, uuid],
        ["organization.silicon.credential_rotated.v1", 5, owner.identity.uuid],
        ["organization.silicon.rotation_requested.v1", 6, owner.identity.uuid],
        ["carbon.updated.v1", 7, null],
        ["organization.membership.profile_updated.v1", 8, null]
      ])
      expect(events[3]!.data).toMatchObject({
        changed: ["rotation_request"],
        rotation_request: requested,
        current: { members: [{ identity: { uuid } }] }
      })
      expect(events[4]!.data).toMatchObject({ changed: ["credential"], rotation_request_id: requested.id })
      expect(JSON.stringify(events)).not.toContain(rotated.token)
      expect(events[6]!.data).toMatchObject({
        changed: ["display_name"],
        current: { members: [{ identity: { uuid: owner.identity.uuid, display_name: "Owner Renamed" }, role: "owner" }] }
      })
      expect(events[7]!.data).toMatchObject({
        changed: ["display_name"],
        current: { members: [{ identity: { uuid, display_name: "Robot Two" } }] }
      })
    }))
})
