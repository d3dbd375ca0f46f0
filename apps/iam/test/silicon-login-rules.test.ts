import { layer } from "@effect/vitest"
import { AccountsDirectory } from "@platform/accounts-identity-api"
import { TestDatabase } from "@platform/database"
import { Duration, Effect, Layer, Option, Ref, TestClock } from "effect"
import { expect } from "vitest"
import { IamConfig } from "../src/config.ts"
import { carbonIdentity } from "../src/identities/fromAccounts.ts"
import { IdentitiesRepo } from "../src/identities/IdentitiesRepo.ts"
import { iamMigrations } from "../src/migrations.ts"
import { Organizations } from "../src/organizations/Organizations.ts"
import { OrganizationSilicons } from "../src/organizations/OrganizationSilicons.ts"
import { IamSessions } from "../src/sessions/IamSessions.ts"
import { SiliconLogin } from "../src/silicon-auth/SiliconLogin.ts"
import { accountsHold, newCarbon } from "./support/carbons.ts"
import { eventsOf } from "./support/iamEvents.ts"
import { iamTestSettings } from "./support/IamTest.ts"

const Services = Layer.mergeAll(
  Organizations.Default,
  OrganizationSilicons.Default,
  SiliconLogin.Default,
  IamSessions.Default,
  IdentitiesRepo.Default
).pipe(
  Layer.provideMerge(AccountsDirectory.Test),
  Layer.provideMerge(Layer.succeed(IamConfig, iamTestSettings(0))),
  Layer.provideMerge(TestDatabase.layer(iamMigrations))
)

/** A Silicon made in a fresh organization by its owner. */
const siliconOfOrganization = Effect.gen(function*() {
  const made = yield* accountsHold(newCarbon("owner"))
  const identity = carbonIdentity({ ...made, id: made.id ?? "" })
  yield* Effect.flatMap(IdentitiesRepo, (repo) => repo.remember(identity))
  const owner = { ...identity, sessionId: "ses_test" }
  const { organization } = yield* Effect.flatMap(Organizations, (organizations) => organizations.create(owner, { name: "Lab" }))
  const handle = `bot${crypto.randomUUID().slice(0, 8)}`
  const { member, token } = yield* Effect.flatMap(OrganizationSilicons, (silicons) =>
    silicons.create(owner, organization.id, { id: handle, display_name: "Bot" }))
  return { owner, organizationId: organization.id, id: `si:${handle}`, uuid: member.identity.uuid, token }
})

const wrong = `stk-${"a".repeat(32)}`

layer(Services)("Silicon login rules", (it) => {
  it.effect("a lock lasts 60 seconds, then the right token works and a new streak of ten starts", () =>
    Effect.gen(function*() {
      const login = yield* SiliconLogin
      const { id, token } = yield* siliconOfOrganization
      for (let attempt = 0; attempt < 10; attempt++) {
        expect(yield* Effect.flip(login.check(id, wrong))).toMatchObject({ code: "invalid_credentials" })
      }
      yield* TestClock.adjust(Duration.seconds(59))
      const locked = yield* Effect.flip(login.check(id, token))
      expect(locked).toMatchObject({ code: "login_locked", status: 423, details: { retry_after_seconds: 1 } })
      yield* TestClock.adjust(Duration.seconds(1))
      expect((yield* login.check(id, token)).id).toBe(id)
      for (let attempt = 0; attempt < 9; attempt++) yield* Effect.flip(login.check(id, wrong))
      expect((yield* login.check(id, token)).kind).toBe("silicon")
    }))

  it.effect("rotation (admins, after step-up): the new token works, the old one stops, the Silicon's sessions end", () =>
    Effect.gen(function*() {
      const silicons = yield* OrganizationSilicons
      const login = yield* SiliconLogin
      const sessions = yield* IamSessions
      const { id, organizationId, owner, token, uuid } = yield* siliconOfOrganization
      const session = yield* sessions.open(yield* login.check(id, token), "silicon_token")
      const spent = yield* Ref.make(0)
      const confirm = Ref.update(spent, (count) => count + 1)

      const robot = { uuid, id, kind: "silicon" as const, sessionId: session.session_id }
      expect(yield* Effect.flip(silicons.rotateToken(robot, organizationId, uuid, confirm))).toMatchObject({
        code: "organization_admin_required"
      })
      expect(yield* Effect.flip(silicons.rotateToken(owner, organizationId, owner.uuid, confirm))).toMatchObject({
        code: "member_not_found"
      })
      expect(yield* Ref.get(spent)).toBe(0)

      const rotated = yield* silicons.rotateToken(owner, organizationId, uuid, confirm)
      expect(yield* Ref.get(spent)).toBe(1)
      expect(rotated.token).toMatch(/^stk-[0-9a-f]{32}$/)
      expect(rotated.token).not.toBe(token)
      expect(yield* Effect.flip(login.check(id, token))).toMatchObject({ code: "invalid_credentials" })
      expect((yield* login.check(id, rotated.token)).uuid).toBe(uuid)
      expect(yield* sessions.authenticate(session.access_token)).toEqual(Option.none())

      const last = (yield* eventsOf(organizationId)).at(-1)!
      expect(last).toMatchObject({
        type: "organization.silicon.credential_rotated.v1",
        data: { changed: ["credential"], rotated_at: rotated.rotated_at, current: { members: [{ identity: { uuid } }] } }
      })
      expect(JSON.stringify(last)).not.toContain(rotated.token.slice(4))
    }))

  it.effect("only a Carbon admin creates Silicons, under accounts' id rules", () =>
    Effect.gen(function*() {
      const silicons = yield* OrganizationSilicons
      const { id, organizationId, owner, uuid } = yield* siliconOfOrganization
      const robot = { uuid, id, kind: "silicon" as const, sessionId: "ses_robot" }
      expect(yield* Effect.flip(silicons.create(robot, organizationId, { id: "another", display_name: "A" }))).toMatchObject({
        code: "organization_admin_required"
      })
      expect(yield* Effect.flip(silicons.create(owner, organizationId, { id: id.slice(3), display_name: "Twin" }))).toMatchObject({
        code: "id_taken"
      })
      expect(yield* Effect.flip(silicons.create(owner, organizationId, { id: "c:wrongkind", display_name: "W" }))).toMatchObject({
        code: "invalid_id"
      })
    }))
})
