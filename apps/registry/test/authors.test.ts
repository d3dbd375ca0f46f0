import { expect, layer } from "@effect/vitest"
import { FakeAccountsApps } from "@platform/accounts-identity-api"
import { Effect, Option } from "effect"
import { call, newAppId } from "./support/catalogue.ts"
import { newCarbon, newSilicon, RegistryTest, signedIn } from "./support/RegistryTest.ts"

type Signed = Effect.Effect.Success<ReturnType<typeof signedIn>>

const createdBy = (owner: Signed) =>
  Effect.gen(function*() {
    const appId = newAppId("team")
    expect((yield* call("POST", "/v1/apps", { headers: owner.headers, body: { app_id: appId, name: "Team" } })).status).toBe(201)
    return appId
  })

/** `who` joins `appId` through an invitation to their c:/si: id sent by `by`. */
const joins = (appId: string, by: Signed, who: Signed) =>
  Effect.gen(function*() {
    const invite = yield* call("POST", `/v1/apps/${appId}/invites`, { headers: by.headers, body: { to: who.identity.id } })
    expect(invite.status).toBe(201)
    const accepted = yield* call("POST", `/v1/invites/${invite.body.id}/accept`, { headers: who.headers, body: {} })
    expect(accepted.body).toEqual({ status: "accepted" })
  })

const authorsOf = (appId: string, headers: Record<string, string>) =>
  Effect.map(call("GET", `/v1/apps/${appId}/authors`, { headers }), (answer) => answer.body.items as Array<any>)

const kinds = (appId: string, headers: Record<string, string>) =>
  Effect.map(call("GET", `/v1/apps/${appId}/history`, { headers }), (answer) => answer.body.items.map((item: any) => item.kind))

layer(RegistryTest(), { excludeTestServices: true })("authors and invites over HTTP", (it) => {
  it.effect("an invite by email is answered by whoever has it verified; two authors; accounts gets the co-author", () =>
    Effect.gen(function*() {
      const ada = yield* signedIn(newCarbon("Ada"))
      const appId = yield* createdBy(ada)
      const email = `grace${Date.now()}@example.org`
      const invited = yield* call("POST", `/v1/apps/${appId}/invites`, { headers: ada.headers, body: { to: ` ${email.toUpperCase()} ` } })
      expect(invited.status).toBe(201)
      expect(invited.body).toEqual({
        id: expect.stringMatching(/^inv_/),
        app_id: appId,
        app_name: "Team",
        to: email,
        invitee_uuid: null,
        email,
        status: "pending",
        invited_by: { uuid: ada.identity.uuid, id: ada.identity.id, display_name: "Ada" },
        created_at: expect.any(String),
        expires_at: expect.any(String),
        decided_at: null
      })
      expect(Date.parse(invited.body.expires_at) - Date.parse(invited.body.created_at)).toBe(14 * 24 * 3600 * 1000)

      // Someone without that verified email neither sees nor answers it.
      const mallory = yield* signedIn(newCarbon("Mallory"))
      expect((yield* call("GET", "/v1/invites", { headers: mallory.headers })).body).toEqual({ items: [] })
      const stolen = yield* call("POST", `/v1/invites/${invited.body.id}/accept`, { headers: mallory.headers, body: {} })
      expect(stolen.status).toBe(404)
      expect(stolen.body.error.code).toBe("invite_not_found")

      const grace = yield* signedIn({ ...newCarbon("Grace"), verified_emails: [email] })
      const mine = yield* call("GET", "/v1/invites", { headers: grace.headers })
      expect(mine.body.items.map((invite: any) => invite.id)).toEqual([invited.body.id])
      const accepted = yield* call("POST", `/v1/invites/${invited.body.id}/accept`, { headers: grace.headers, body: {} })
      expect(accepted.status).toBe(200)
      expect(accepted.body).toEqual({ status: "accepted" })
      const again = yield* call("POST", `/v1/invites/${invited.body.id}/accept`, { headers: grace.headers, body: {} })
      expect(again.status).toBe(409)
      expect(again.body.error).toMatchObject({ code: "invite_not_pending", details: { status: "accepted" } })

      const authors = yield* authorsOf(appId, grace.headers)
      expect(authors).toEqual([
        { uuid: ada.identity.uuid, id: ada.identity.id, display_name: "Ada", joined_at: expect.any(String), administrator: true },
        { uuid: grace.identity.uuid, id: grace.identity.id, display_name: "Grace", joined_at: expect.any(String), administrator: false }
      ])
      // A co-author manages the app (here: rotates its secret).
      expect((yield* call("POST", `/v1/apps/${appId}/secret/rotate`, { headers: grace.headers })).status).toBe(200)
      const fake = yield* FakeAccountsApps
      expect(Option.getOrThrow(yield* fake.app(appId))).toMatchObject({ owner_uuid: ada.identity.uuid, coauthor_uuids: [grace.identity.uuid] })
      expect(yield* kinds(appId, ada.headers)).toEqual([
        "app.secret_rotated",
        "author.joined",
        "invite.accepted",
        "invite.created",
        "app.created"
      ])
    }))

  it.effect("invites by c: and si: ids: decline, cancel, refusals; the app's list shows every state", () =>
    Effect.gen(function*() {
      const ada = yield* signedIn(newCarbon("Ada"))
      const bob = yield* signedIn(newCarbon("Bob"))
      const scout = yield* signedIn(newSilicon("Scout"))
      const appId = yield* createdBy(ada)

      const toBob = yield* call("POST", `/v1/apps/${appId}/invites`, { headers: ada.headers, body: { to: bob.identity.id!.toUpperCase() } })
      expect(toBob.body).toMatchObject({ to: bob.identity.id, invitee_uuid: bob.identity.uuid, email: null, status: "pending" })
      const twice = yield* call("POST", `/v1/apps/${appId}/invites`, { headers: ada.headers, body: { to: bob.identity.id } })
      expect(twice.status).toBe(409)
      expect(twice.body.error).toMatchObject({ code: "already_invited", details: { invite_id: toBob.body.id } })
      expect((yield* call("GET", "/v1/invites", { headers: bob.headers })).body.items.map((invite: any) => invite.id)).toEqual([toBob.body.id])
      const declined = yield* call("POST", `/v1/invites/${toBob.body.id}/decline`, { headers: bob.headers, body: {} })
      expect(declined.body).toEqual({ status: "declined" })
      expect((yield* call("GET", "/v1/invites", { headers: bob.headers })).body.items).toEqual([])

      const toScout = yield* call("POST", `/v1/apps/${appId}/invites`, { headers: ada.headers, body: { to: scout.identity.id } })
      expect(toScout.status).toBe(201)
      const cancelled = yield* call("DELETE", `/v1/apps/${appId}/invites/${toScout.body.id}`, { headers: ada.headers })
      expect(cancelled.body).toEqual({ status: "cancelled" })
      const late = yield* call("POST", `/v1/invites/${toScout.body.id}/accept`, { headers: scout.headers, body: {} })
      expect(late.status).toBe(409)
      expect(late.body.error.details).toEqual({ status: "cancelled" })
      expect((yield* call("DELETE", `/v1/apps/${appId}/invites/${toScout.body.id}`, { headers: ada.headers })).status).toBe(409)
      expect((yield* call("DELETE", `/v1/apps/${appId}/invites/inv_nothing`, { headers: ada.headers })).body.error.code).toBe("invite_not_found")

      for (const [to, problem] of [["c:nobody-here", "names no active account (c:nobody-here)"], ["not-an-address", "must be a c: id, an si: id or an email"]]) {
        const refused = yield* call("POST", `/v1/apps/${appId}/invites`, { headers: ada.headers, body: { to } })
        expect(refused.status).toBe(422)
        expect(refused.body.error).toMatchObject({ code: "validation_failed", details: { fields: { to: problem } } })
      }
      const self = yield* call("POST", `/v1/apps/${appId}/invites`, { headers: ada.headers, body: { to: ada.identity.id } })
      expect(self.status).toBe(409)
      expect(self.body.error.code).toBe("already_an_author")
      // Bob declined; he may be invited again. Only authors invite or read the app's invitations.
      expect((yield* call("POST", `/v1/apps/${appId}/invites`, { headers: ada.headers, body: { to: bob.identity.id } })).status).toBe(201)
      expect((yield* call("GET", `/v1/apps/${appId}/invites`, { headers: bob.headers })).status).toBe(404)
      const list = yield* call("GET", `/v1/apps/${appId}/invites`, { headers: ada.headers })
      expect(list.body.items.map((invite: any) => invite.status)).toEqual(["pending", "cancelled", "declined"])
      expect(yield* kinds(appId, ada.headers)).toEqual([
        "invite.created",
        "invite.cancelled",
        "invite.created",
        "invite.declined",
        "invite.created",
        "app.created"
      ])
    }))

  it.effect("leave: the last author cannot; the administrator's leaving passes administration to the oldest author", () =>
    Effect.gen(function*() {
      const ada = yield* signedIn(newCarbon("Ada"))
      const bob = yield* signedIn(newCarbon("Bob"))
      const carol = yield* signedIn(newCarbon("Carol"))
      const appId = yield* createdBy(ada)
      const alone = yield* call("POST", `/v1/apps/${appId}/authors/leave`, { headers: ada.headers })
      expect(alone.status).toBe(409)
      expect(alone.body.error).toMatchObject({ code: "last_author", hint: expect.any(String) })

      yield* joins(appId, ada, bob)
      yield* joins(appId, ada, carol)
      const left = yield* call("POST", `/v1/apps/${appId}/authors/leave`, { headers: ada.headers })
      expect(left.status).toBe(200)
      expect(left.body).toEqual({ status: "left" })
      const authors = yield* authorsOf(appId, bob.headers)
      expect(authors.map((author) => [author.uuid, author.administrator])).toEqual([[bob.identity.uuid, true], [carol.identity.uuid, false]])
      const app = yield* call("GET", `/v1/apps/${appId}`, { headers: bob.headers })
      expect(app.body.administrator_uuid).toBe(bob.identity.uuid)
      // Ada is no author any more: the draft is hidden from her.
      expect((yield* call("GET", `/v1/apps/${appId}`, { headers: ada.headers })).status).toBe(404)
      const fake = yield* FakeAccountsApps
      expect(Option.getOrThrow(yield* fake.app(appId))).toMatchObject({ owner_uuid: bob.identity.uuid, coauthor_uuids: [carol.identity.uuid] })
      expect((yield* kinds(appId, bob.headers)).slice(0, 2)).toEqual(["admin.passed", "author.left"])
    }))

  it.effect("transfer administration to an author; remove an author (not oneself); refusals", () =>
    Effect.gen(function*() {
      const ada = yield* signedIn(newCarbon("Ada"))
      const bob = yield* signedIn(newCarbon("Bob"))
      const appId = yield* createdBy(ada)
      yield* joins(appId, ada, bob)
      const outsider = yield* signedIn(newCarbon("Eve"))

      const notAuthor = yield* call("POST", `/v1/apps/${appId}/admin`, { headers: ada.headers, body: { uuid: outsider.identity.uuid } })
      expect(notAuthor.status).toBe(404)
      expect(notAuthor.body.error.code).toBe("author_not_found")
      const bobNotAdmin = yield* call("POST", `/v1/apps/${appId}/admin`, { headers: bob.headers, body: { uuid: bob.identity.uuid } })
      expect(bobNotAdmin.status).toBe(403)
      expect(bobNotAdmin.body.error.code).toBe("not_administrator")
      const transferred = yield* call("POST", `/v1/apps/${appId}/admin`, { headers: ada.headers, body: { uuid: bob.identity.uuid } })
      expect(transferred.body).toEqual({ status: "transferred" })
      const fake = yield* FakeAccountsApps
      expect(Option.getOrThrow(yield* fake.app(appId))).toMatchObject({ owner_uuid: bob.identity.uuid, coauthor_uuids: [ada.identity.uuid] })

      const self = yield* call("DELETE", `/v1/apps/${appId}/authors/${bob.identity.uuid}`, { headers: bob.headers })
      expect(self.status).toBe(409)
      expect(self.body.error.code).toBe("cannot_remove_self")
      expect((yield* call("DELETE", `/v1/apps/${appId}/authors/${ada.identity.uuid}`, { headers: ada.headers })).status).toBe(403)
      const removed = yield* call("DELETE", `/v1/apps/${appId}/authors/${ada.identity.uuid}`, { headers: bob.headers })
      expect(removed.body).toEqual({ status: "removed" })
      expect((yield* authorsOf(appId, bob.headers)).map((author) => author.uuid)).toEqual([bob.identity.uuid])
      expect((yield* call("DELETE", `/v1/apps/${appId}/authors/${ada.identity.uuid}`, { headers: bob.headers })).status).toBe(404)
      expect(Option.getOrThrow(yield* fake.app(appId))).toMatchObject({ owner_uuid: bob.identity.uuid, coauthor_uuids: [] })
      const history = (yield* call("GET", `/v1/apps/${appId}/history`, { headers: bob.headers })).body.items
      expect(history.slice(0, 2)).toMatchObject([
        { kind: "author.removed", actor_uuid: bob.identity.uuid, data: { uuid: ada.identity.uuid } },
        { kind: "admin.transferred", actor_uuid: ada.identity.uuid, data: { from: ada.identity.uuid, to: bob.identity.uuid } }
      ])
    }))

  it.effect("Silicon authors are not sent to accounts; the last Carbon cannot go while Silicons remain; a Silicon's app syncs when a Carbon joins", () =>
    Effect.gen(function*() {
      const ada = yield* signedIn(newCarbon("Ada"))
      const scout = yield* signedIn(newSilicon("Scout"))
      const appId = yield* createdBy(ada)
      yield* joins(appId, ada, scout)
      const fake = yield* FakeAccountsApps
      expect(Option.getOrThrow(yield* fake.app(appId))).toMatchObject({ owner_uuid: ada.identity.uuid, coauthor_uuids: [] })
      // Administration with a Silicon: accounts' owner stays the oldest Carbon.
      yield* call("POST", `/v1/apps/${appId}/admin`, { headers: ada.headers, body: { uuid: scout.identity.uuid } })
      expect(Option.getOrThrow(yield* fake.app(appId)).owner_uuid).toBe(ada.identity.uuid)
      const leaving = yield* call("POST", `/v1/apps/${appId}/authors/leave`, { headers: ada.headers })
      expect(leaving.status).toBe(409)
      expect(leaving.body.error.code).toBe("last_carbon_author")
      expect((yield* call("DELETE", `/v1/apps/${appId}/authors/${ada.identity.uuid}`, { headers: scout.headers })).body.error.code)
        .toBe("last_carbon_author")

      const agentApp = newAppId("agent")
      yield* call("POST", "/v1/apps", { headers: scout.headers, body: { app_id: agentApp, name: "Agent" } })
      expect(Option.isNone(yield* fake.app(agentApp))).toBe(true)
      yield* joins(agentApp, scout, ada)
      expect(Option.getOrThrow(yield* fake.app(agentApp))).toMatchObject({ owner_uuid: ada.identity.uuid, app_secret_sha256: expect.any(String) })
    }))

  it.effect("accounts down while accepting: 503 and the invitation stays pending; authors are public where the app is", () =>
    Effect.gen(function*() {
      const ada = yield* signedIn(newCarbon("Ada"))
      const bob = yield* signedIn(newCarbon("Bob"))
      const appId = yield* createdBy(ada)
      const invite = yield* call("POST", `/v1/apps/${appId}/invites`, { headers: ada.headers, body: { to: bob.identity.id } })
      const fake = yield* FakeAccountsApps
      yield* fake.setUnavailable(true)
      const down = yield* call("POST", `/v1/invites/${invite.body.id}/accept`, { headers: bob.headers, body: {} })
      yield* fake.setUnavailable(false)
      expect(down.status).toBe(503)
      expect(down.body.error.code).toBe("accounts_unavailable")
      expect((yield* call("GET", "/v1/invites", { headers: bob.headers })).body.items.map((item: any) => item.status)).toEqual(["pending"])
      expect((yield* authorsOf(appId, ada.headers)).length).toBe(1)
      // A draft's authors are hidden like the draft.
      expect((yield* call("GET", `/v1/apps/${appId}/authors`)).status).toBe(404)
    }))
})
