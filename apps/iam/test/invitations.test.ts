import { layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { expect } from "vitest"
import { IamSessions } from "../src/sessions/IamSessions.ts"
import { accountsHold, newCarbon } from "./support/carbons.ts"
import { answerOf } from "./support/http.ts"
import { eventsOf } from "./support/iamEvents.ts"
import { iamClient, IamTest } from "./support/IamTest.ts"
import { signedInCarbon } from "./support/signedIn.ts"
import { stepUp } from "./support/stepUp.ts"

const Iam = IamSessions.Default.pipe(Layer.provideMerge(IamTest()))

/** An organization owned by a fresh Carbon who is signed in. */
const ownedOrganization = Effect.gen(function*() {
  const carbon = yield* accountsHold(newCarbon("ada"))
  const owner = yield* signedInCarbon(carbon)
  const { organization } = yield* owner.client.organizations.create({ payload: { name: "Engines" } })
  return { owner, id: organization.id, ownerEmail: carbon.verified_emails[0]! }
})

/** The caller's client sending a step-up token too. */
const steppedUp = (bearer: string, stepUpToken: string) =>
  iamClient({ authorization: `Bearer ${bearer}`, "x-step-up-token": stepUpToken })

/** Expiry (48 hours), reactivation and the rules in detail: invitation-rules.test.ts. */
layer(Iam, { excludeTestServices: true })("invitations over HTTP", (it) => {
  it.effect("a Carbon invited by email joins when the address is verified on its account; roles, ownership and removal follow", () =>
    Effect.gen(function*() {
      const { id, owner, ownerEmail } = yield* ownedOrganization
      const email = `grace-${crypto.randomUUID()}@example.com`
      const invitation = yield* owner.client.invitations.invite({
        path: { organization_id: id },
        payload: { to: ` ${email.toUpperCase()} `, role: "member" }
      })
      expect(invitation).toMatchObject({
        id: expect.stringMatching(/^inv_/),
        organization: { id, name: "Engines" },
        invitee: { email, uuid: null, id: null },
        role: "member",
        status: "pending",
        invited_by_uuid: owner.identity.uuid,
        decided_at: null
      })
      expect(Date.parse(invitation.expires_at) - Date.parse(invitation.created_at)).toBe(48 * 3600 * 1000)
      const again = yield* Effect.flip(owner.client.invitations.invite({ path: { organization_id: id }, payload: { to: email } }))
      expect(again).toMatchObject({ code: "invitation_exists", details: { invitation_id: invitation.id } })

      // A Carbon on whom the address is not verified: not theirs to see or accept.
      const stranger = yield* signedInCarbon(yield* accountsHold(newCarbon("mallory")))
      expect((yield* stranger.client.invitations.listMine({ urlParams: {} })).items).toEqual([])
      const stolen = yield* Effect.flip(stranger.client.invitations.accept({ path: { invitation_id: invitation.id } }))
      expect(stolen).toMatchObject({ code: "invitation_not_found" })

      const grace = yield* signedInCarbon(yield* accountsHold(newCarbon("grace", { verified_emails: ["grace@elsewhere.example", email] })))
      const mine = yield* grace.client.invitations.listMine({ urlParams: {} })
      expect(mine.items.map((item) => item.id)).toEqual([invitation.id])
      const accepted = yield* grace.client.invitations.accept({ path: { invitation_id: invitation.id } })
      expect(accepted.invitation).toMatchObject({ status: "accepted", decided_at: expect.any(String) })
      expect(accepted.member).toMatchObject({ identity: { uuid: grace.identity.uuid, kind: "carbon" }, role: "member", status: "active" })
      expect((yield* grace.client.organizations.list({ urlParams: {} })).items).toEqual([
        expect.objectContaining({ role: "member", organization: expect.objectContaining({ id }) })
      ])
      const twice = yield* Effect.flip(grace.client.invitations.accept({ path: { invitation_id: invitation.id } }))
      expect(twice).toMatchObject({ code: "already_member" })

      // A role change and an ownership transfer need step-up: without a token, refused.
      const promote = { path: { organization_id: id, uuid: grace.identity.uuid }, payload: { role: "admin" as const } }
      const transfer = { path: { organization_id: id }, payload: { uuid: grace.identity.uuid } }
      expect(yield* Effect.flip(owner.client.members.changeRole(promote))).toMatchObject({ code: "step_up_required", status: 403 })
      expect(yield* Effect.flip(owner.client.organizations.transferOwnership(transfer))).toMatchObject({ code: "step_up_required" })
      // A member manages nothing.
      const notAdmin = yield* Effect.flip(grace.client.invitations.listOfOrganization({ path: { organization_id: id }, urlParams: {} }))
      expect(notAdmin).toMatchObject({ code: "organization_admin_required" })

      const forRoles = yield* stepUp(owner.bearer, ownerEmail, "organization.authorization_change", id)
      const withRolesToken = yield* steppedUp(owner.bearer, forRoles.step_up_token)
      // A token for the authorization change is not one for the transfer.
      expect(yield* Effect.flip(withRolesToken.organizations.transferOwnership(transfer))).toMatchObject({ code: "step_up_mismatch" })
      expect(yield* withRolesToken.members.changeRole(promote)).toMatchObject({ role: "admin" })
      expect(yield* Effect.flip(withRolesToken.members.changeRole({ ...promote, payload: { role: "member" } }))).toMatchObject({
        code: "step_up_used"
      })

      const forTransfer = yield* stepUp(owner.bearer, ownerEmail, "organization.transfer_ownership", id)
      const transferred = yield* (yield* steppedUp(owner.bearer, forTransfer.step_up_token)).organizations.transferOwnership(transfer)
      expect(transferred).toMatchObject({ role: "admin", organization: { owner_uuid: grace.identity.uuid } })
      expect(yield* grace.client.organizations.read({ path: { organization_id: id } })).toMatchObject({ role: "owner" })

      // The new owner removes the previous one, now an admin.
      const removed = yield* grace.client.members.remove({ path: { organization_id: id, uuid: owner.identity.uuid } })
      expect(removed).toMatchObject({ status: "removed", role: "admin" })
      const gone = yield* Effect.flip(owner.client.organizations.read({ path: { organization_id: id } }))
      expect(gone).toMatchObject({ code: "organization_not_found" })

      const events = yield* eventsOf(id)
      expect(events.map((event) => event.type)).toEqual([
        "organization.created.v1",
        "organization.membership.created.v1",
        "organization.invitation.created.v1",
        "organization.invitation.accepted.v1",
        "organization.membership.created.v1",
        "organization.membership.authorization_updated.v1",
        "organization.admin.promoted.v1",
        "organization.ownership_transferred.v1",
        "organization.membership.authorization_updated.v1",
        "organization.membership.authorization_updated.v1",
        "organization.membership.removed.v1"
      ])
      expect(events[2]!.data).toEqual({ changed: ["status"], current: { resource: invitation } })
      expect(events[4]!.data.current).toEqual({ members: [accepted.member] })
      expect(events.map((event) => event.aggregate_version)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11])
      expect(events[10]).toMatchObject({ actor_uuid: grace.identity.uuid, data: { current: { members: [removed] } } })
    }))

  it.effect("by c: id; an unknown id is 404; declined and revoked invitations end; the lists show them", () =>
    Effect.gen(function*() {
      const { id, owner } = yield* ownedOrganization
      const linus = yield* signedInCarbon(yield* accountsHold(newCarbon("linus")))
      const byId = yield* owner.client.invitations.invite({
        path: { organization_id: id },
        payload: { to: linus.identity.id.toUpperCase(), role: "admin" }
      })
      expect(byId.invitee).toEqual({ email: null, uuid: linus.identity.uuid, id: linus.identity.id })
      const unknown = yield* Effect.flip(owner.client.invitations.invite({ path: { organization_id: id }, payload: { to: "c:nobody-here" } }))
      expect(unknown).toMatchObject({ code: "account_not_found", status: 404 })
      const silicon = yield* Effect.flip(owner.client.invitations.invite({ path: { organization_id: id }, payload: { to: "si:robot" } }))
      expect(silicon).toMatchObject({ code: "validation_failed" })

      const declined = yield* linus.client.invitations.decline({ path: { invitation_id: byId.id } })
      expect(declined.status).toBe("declined")
      const late = yield* Effect.flip(linus.client.invitations.accept({ path: { invitation_id: byId.id } }))
      expect(late).toMatchObject({ code: "invitation_not_pending", details: { status: "declined" } })

      const toEmail = yield* owner.client.invitations.invite({ path: { organization_id: id }, payload: { to: "someone@example.com" } })
      const revoked = yield* owner.client.invitations.revoke({ path: { organization_id: id, invitation_id: toEmail.id } })
      expect(revoked.status).toBe("revoked")
      const revokedTwice = yield* Effect.flip(owner.client.invitations.revoke({ path: { organization_id: id, invitation_id: toEmail.id } }))
      expect(revokedTwice).toMatchObject({ code: "invitation_not_pending" })

      const listed = yield* owner.client.invitations.listOfOrganization({ path: { organization_id: id }, urlParams: { limit: 1 } })
      expect(listed.items.map((item) => item.status)).toEqual(["declined"])
      const rest = yield* owner.client.invitations.listOfOrganization({
        path: { organization_id: id },
        urlParams: { cursor: listed.next_cursor! }
      })
      expect(rest).toEqual({ items: [revoked], next_cursor: null })
      const events = yield* eventsOf(id)
      expect(events.slice(2).map((event) => [event.type, event.data["reason"]])).toEqual([
        ["organization.invitation.created.v1", undefined],
        ["organization.invitation.revoked.v1", "declined"],
        ["organization.invitation.created.v1", undefined],
        ["organization.invitation.revoked.v1", "revoked"]
      ])
    }))

  it.effect("a refused change answers its error envelope over the wire", () =>
    Effect.gen(function*() {
      const { id, owner } = yield* ownedOrganization
      const answer = yield* answerOf(`/api/v1/organizations/${id}/owner`, {
        method: "POST",
        headers: { authorization: `Bearer ${owner.bearer}`, "content-type": "application/json" },
        body: JSON.stringify({ uuid: "not-a-member" })
      })
      expect(answer.status).toBe(404)
      expect(answer.body).toEqual({ error: { code: "member_not_found", message: expect.any(String) } })
    }))
})
