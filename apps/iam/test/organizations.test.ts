import { layer } from "@effect/vitest"
import { ServiceUrl } from "@platform/testkit"
import { Effect, Layer } from "effect"
import { expect } from "vitest"
import { IamSessions } from "../src/sessions/IamSessions.ts"
import { eventsOf, eventTypesOf } from "./support/iamEvents.ts"
import { IamTest } from "./support/IamTest.ts"
import { newIdentity } from "./support/identities.ts"
import { signedInAs } from "./support/signedIn.ts"

const Iam = IamSessions.Default.pipe(Layer.provideMerge(IamTest()))

/** Role changes, transfers, invitations and the rules behind them: organization-rules.test.ts. */
layer(Iam, { excludeTestServices: true })("organizations over HTTP", (it) => {
  it.effect("a Carbon creates an organization it owns, reads, lists and renames it; each change is an event", () =>
    Effect.gen(function*() {
      const ada = yield* signedInAs(newIdentity("carbon", "Ada"))
      const created = yield* ada.client.organizations.create({ payload: { name: "Analytical Engines" } })
      expect(created).toMatchObject({
        role: "owner",
        organization: { name: "Analytical Engines", description: null, owner_uuid: ada.identity.uuid, version: 2 }
      })
      const id = created.organization.id
      expect(id).toMatch(/^org_[A-Za-z0-9_-]{22}$/)
      expect(yield* ada.client.organizations.read({ path: { organization_id: id } })).toEqual(created)

      const renamed = yield* ada.client.organizations.update({
        path: { organization_id: id },
        payload: { name: "Difference Engines", description: "Gears" }
      })
      expect(renamed.organization).toMatchObject({ name: "Difference Engines", description: "Gears", version: 3 })
      // The same values again: no version, no event.
      const same = yield* ada.client.organizations.update({ path: { organization_id: id }, payload: { name: "Difference Engines" } })
      expect(same.organization.version).toBe(3)

      const mine = yield* ada.client.organizations.list({ urlParams: {} })
      expect(mine).toEqual({ items: [renamed], next_cursor: null })
      const events = yield* eventsOf(id)
      expect(events.map((event) => [event.type, event.aggregate_version, event.actor_uuid])).toEqual([
        ["organization.created.v1", 1, ada.identity.uuid],
        ["organization.membership.created.v1", 2, ada.identity.uuid],
        ["organization.updated.v1", 3, ada.identity.uuid]
      ])
      expect(events[2]!.data).toEqual({ changed: ["name", "description"], current: { organization: renamed.organization } })
      expect(events[1]!.data.current).toMatchObject({ members: [{ identity: { uuid: ada.identity.uuid }, role: "owner" }] })
    }))

  it.effect("a Silicon cannot create one; an outsider is told it does not exist; a bad name is 422", () =>
    Effect.gen(function*() {
      const ada = yield* signedInAs(newIdentity("carbon", "Ada"))
      const robot = yield* signedInAs(newIdentity("silicon", "Robot"))
      const refused = yield* Effect.flip(robot.client.organizations.create({ payload: { name: "Robots" } }))
      expect(refused).toMatchObject({ _tag: "CarbonRequired", code: "carbon_required" })
      const { organization } = yield* ada.client.organizations.create({ payload: { name: "Private" } })
      const outsider = yield* signedInAs(newIdentity("carbon", "Eve"))
      const hidden = yield* Effect.flip(outsider.client.organizations.read({ path: { organization_id: organization.id } }))
      expect(hidden).toMatchObject({ code: "organization_not_found" })
      const unknown = yield* Effect.flip(ada.client.organizations.read({ path: { organization_id: "org_nope" } }))
      expect(unknown).toMatchObject({ code: "organization_not_found" })
      const url = yield* ServiceUrl
      const blank = yield* Effect.promise(() =>
        fetch(`${url}/api/v1/organizations`, {
          method: "POST",
          headers: { authorization: `Bearer ${ada.bearer}`, "content-type": "application/json" },
          body: JSON.stringify({ name: "   " })
        }).then(async (response) => ({ status: response.status, body: await response.json() as { error: unknown } }))
      )
      expect(blank.status).toBe(422)
      expect(blank.body.error).toMatchObject({ code: "validation_failed", details: { fields: { name: expect.any(String) } } })
    }))

  it.effect("lists page by name; members list the owner; the owner cannot leave nor transfer to itself", () =>
    Effect.gen(function*() {
      const ada = yield* signedInAs(newIdentity("carbon", "Ada"))
      for (const name of ["Charlie", "Alpha", "Bravo"]) yield* ada.client.organizations.create({ payload: { name } })
      const first = yield* ada.client.organizations.list({ urlParams: { limit: 2 } })
      expect(first.items.map((item) => item.organization.name)).toEqual(["Alpha", "Bravo"])
      const second = yield* ada.client.organizations.list({ urlParams: { limit: 2, cursor: first.next_cursor! } })
      expect(second.items.map((item) => item.organization.name)).toEqual(["Charlie"])
      expect(second.next_cursor).toBeNull()

      const id = first.items[0]!.organization.id
      const members = yield* ada.client.members.list({ path: { organization_id: id }, urlParams: {} })
      expect(members.items).toEqual([expect.objectContaining({ identity: expect.objectContaining({ uuid: ada.identity.uuid }), role: "owner" })])
      const leave = yield* Effect.flip(ada.client.members.remove({ path: { organization_id: id, uuid: ada.identity.uuid } }))
      expect(leave).toMatchObject({ code: "owner_protected" })
      const transfer = yield* Effect.flip(
        ada.client.organizations.transferOwnership({ path: { organization_id: id }, payload: { uuid: ada.identity.uuid } })
      )
      expect(transfer).toMatchObject({ code: "validation_failed" })
      expect(yield* eventTypesOf(id)).toEqual(["organization.created.v1", "organization.membership.created.v1"])
    }))
})
