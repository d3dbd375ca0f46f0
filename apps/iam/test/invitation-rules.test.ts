import { layer } from "@effect/vitest"
import { AccountsDirectory } from "@platform/accounts-identity-api"
import { TestDatabase } from "@platform/database"
import { Duration, Effect, Layer, Option, TestClock } from "effect"
import { expect } from "vitest"
import { IamConfig } from "../src/config.ts"
import { carbonIdentity } from "../src/identities/fromAccounts.ts"
import { IdentitiesRepo } from "../src/identities/IdentitiesRepo.ts"
import { iamMigrations } from "../src/migrations.ts"
import { Invitations } from "../src/organizations/Invitations.ts"
import { Members } from "../src/organizations/Members.ts"
import { Organizations } from "../src/organizations/Organizations.ts"
import { accountsHold, newCarbon } from "./support/carbons.ts"
import { eventTypesOf } from "./support/iamEvents.ts"
import { knownIdentity } from "./support/identities.ts"
import { iamTestSettings } from "./support/IamTest.ts"

const Services = Layer.mergeAll(Organizations.Default, Members.Default, Invitations.Default, IdentitiesRepo.Default).pipe(
  Layer.provideMerge(AccountsDirectory.Test),
  Layer.provideMerge(Layer.succeed(IamConfig, iamTestSettings(0))),
  Layer.provideMerge(TestDatabase.layer(iamMigrations))
)

/** A Carbon in accounts with a verified email, known to IAM (as after its login), as a session's identity. */
const carbon = (name: string, emails: ReadonlyArray<string> = []) =>
  Effect.gen(function*() {
    const made = yield* accountsHold(newCarbon(name, { verified_emails: emails }))
    const identity = carbonIdentity({ ...made, id: made.id ?? "" })
    yield* Effect.flatMap(IdentitiesRepo, (repo) => repo.remember(identity))
    return { ...identity, sessionId: "ses_test" }
  })

layer(Services)("invitation rules", (it) => {
  it.effect("an invitation lasts 48 hours: then it reads expired and cannot be accepted, declined or revoked", () =>
    Effect.gen(function*() {
      const invitations = yield* Invitations
      const owner = yield* carbon("owner")
      const { organization } = yield* Effect.flatMap(Organizations, (organizations) => organizations.create(owner, { name: "Timed" }))
      const guest = yield* carbon("guest", ["guest@example.com"])
      const invitation = yield* invitations.invite(owner, organization.id, { to: "guest@example.com" })
      expect(invitation.role).toBe("member")

      yield* TestClock.adjust(Duration.subtract(Duration.hours(48), Duration.millis(1)))
      expect((yield* invitations.listMine(guest, 50, Option.none())).items).toHaveLength(1)
      yield* TestClock.adjust(Duration.millis(1))
      expect((yield* invitations.listMine(guest, 50, Option.none())).items).toEqual([])
      expect(yield* Effect.flip(invitations.accept(guest, invitation.id))).toMatchObject({ code: "invitation_expired", status: 410 })
      expect(yield* Effect.flip(invitations.decline(guest, invitation.id))).toMatchObject({ code: "invitation_expired" })
      expect(yield* Effect.flip(invitations.revoke(owner, organization.id, invitation.id))).toMatchObject({ code: "invitation_expired" })
      // Expired, it no longer stands in the way of a new one.
      const renewed = yield* invitations.invite(owner, organization.id, { to: "guest@example.com" })
      expect(renewed.status).toBe("pending")
    }))

  it.effect("a removed member invited again comes back: membership.reactivated; a Silicon accepts nothing; a member is not invited again", () =>
    Effect.gen(function*() {
      const invitations = yield* Invitations
      const members = yield* Members
      const owner = yield* carbon("owner")
      const { organization } = yield* Effect.flatMap(Organizations, (organizations) => organizations.create(owner, { name: "Again" }))
      const id = organization.id
      const grace = yield* carbon("grace")
      const first = yield* invitations.invite(owner, id, { to: grace.id })
      yield* invitations.accept(grace, first.id)
      const already = yield* Effect.flip(invitations.invite(owner, id, { to: grace.id }))
      expect(already).toMatchObject({ code: "already_member" })
      yield* members.remove(owner, id, grace.uuid)

      const second = yield* invitations.invite(owner, id, { to: grace.id, role: "admin" })
      const robot = yield* knownIdentity("silicon", "Robot")
      expect(yield* Effect.flip(invitations.accept(robot, second.id))).toMatchObject({ code: "carbon_required" })
      const back = yield* invitations.accept(grace, second.id)
      expect(back.member).toMatchObject({ role: "admin", status: "active", removed_at: null })
      expect((yield* eventTypesOf(id)).slice(-3)).toEqual([
        "organization.invitation.created.v1",
        "organization.invitation.accepted.v1",
        "organization.membership.reactivated.v1"
      ])
    }))
})
