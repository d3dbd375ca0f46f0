import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { AccountsTest, AccountsUnderTest } from "./support/AccountsUnderTest.ts"
import { createCarbon } from "./support/carbons.ts"
import { appSignin, deliveriesTo, subscribe, disableApp, eventCounts, feedOf, giveSiliconWebhook, memberApp } from "./support/events.ts"
import { fetchAnswer } from "./support/http.ts"
import { signInDirectly } from "./support/signIn.ts"
import { createSilicon } from "./support/silicons.ts"

const call = (method: string, path: string, token: string, body?: unknown) =>
  Effect.flatMap(AccountsUnderTest, ({ url }) =>
    Effect.promise(() =>
      fetchAnswer(`${url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })
    ))

const signedIn = Effect.gen(function*() {
  const carbon = yield* createCarbon({ displayName: "Ada" })
  const { accessToken } = yield* signInDirectly(carbon.uuid)
  return { carbon, token: accessToken }
})

layer(AccountsTest(), { excludeTestServices: true })("events written by state changes, over HTTP", (it) => {
  it.effect("PATCH /v1/me: account.updated to every live member app and the account itself, in the same transaction", () =>
    Effect.gen(function*() {
      const { carbon, token } = yield* signedIn
      const active = yield* memberApp(carbon.uuid)
      const imported = yield* memberApp(carbon.uuid, { status: "imported", webhook: false })
      const removed = yield* memberApp(carbon.uuid, { status: "access_removed" })
      const disabled = yield* memberApp(carbon.uuid)
      yield* disableApp(disabled.appId)

      const answer = yield* call("PATCH", "/v1/me", token, { display_name: "Ada L." })
      expect(answer.status).toBe(200)

      const feed = yield* feedOf(carbon.uuid, "account.updated")
      expect(feed.map((row) => row.receiver).sort()).toEqual(
        [`account:${carbon.uuid}`, `app:${active.appId}`, `app:${disabled.appId}`, `app:${imported.appId}`].sort()
      )
      const toActive = feed.find((row) => row.receiver === `app:${active.appId}`)!
      expect(toActive.stream).toBe(true)
      expect(toActive.body).toEqual({
        event_id: toActive.body.event_id,
        type: "account.updated",
        occurred_at: answer.body.updated_at,
        app_id: active.appId,
        silicon: null,
        data: {
          uuid: carbon.uuid,
          membership_id: `${active.appId}:${carbon.uuid}`,
          changed: ["display_name"],
          account: {
            uuid: carbon.uuid,
            membership_id: `${active.appId}:${carbon.uuid}`,
            kind: "carbon",
            id: `c:${carbon.handle}`,
            display_name: "Ada L.",
            pfp_url: `${(yield* AccountsUnderTest).url}/v1/photos/default/${carbon.uuid}`,
            updated_at: answer.body.updated_at,
            version: 2
          }
        }
      })
      expect(toActive.body.occurred_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
      const own = feed.find((row) => row.receiver === `account:${carbon.uuid}`)!
      expect(own.body).toMatchObject({ app_id: null, silicon: null, data: { membership_id: null, changed: ["display_name"] } })

      // Webhooks: the active and the disabled app (the worker holds the latter); none without a URL or access.
      const delivered = yield* deliveriesTo(`app:${active.appId}`)
      expect(delivered).toHaveLength(1)
      expect(JSON.parse(delivered[0]!.body)).toEqual(toActive.body)
      expect(delivered[0]).toMatchObject({ event_id: toActive.body.event_id, event_type: "account.updated", manual_replays: 0 })
      expect(yield* deliveriesTo(`app:${disabled.appId}`)).toHaveLength(1)
      expect(yield* deliveriesTo(`app:${imported.appId}`)).toHaveLength(0)
      expect(yield* deliveriesTo(`app:${removed.appId}`)).toHaveLength(0)
      expect(yield* deliveriesTo(`account:${carbon.uuid}`)).toHaveLength(0)
      // Each receiver has its own event id.
      expect(new Set(feed.map((row) => row.body.event_id)).size).toBe(feed.length)
    }))

  it.effect("a refused or empty change writes no event", () =>
    Effect.gen(function*() {
      const { carbon, token } = yield* signedIn
      yield* memberApp(carbon.uuid)
      expect((yield* call("PATCH", "/v1/me", token, { display_name: "a\u0007b", timezone: "Mars/Base" })).status).toBe(422)
      expect((yield* call("PATCH", "/v1/me", token, { display_name: "Ada" })).status).toBe(200)
      expect(yield* eventCounts(carbon.uuid)).toEqual({ events: 0, feed: 0, deliveries: 0 })
    }))

  it.effect("account.updated lists only what the app's scopes show, and an app that sees no change hears nothing", () =>
    Effect.gen(function*() {
      const { carbon, token } = yield* signedIn
      const withDob = yield* memberApp(carbon.uuid, { scopes: ["profile", "dob", "email"] })
      const plain = yield* memberApp(carbon.uuid)
      // dob has no update name of its own: only an app hearing all updates is told (decisions.md).
      expect((yield* subscribe(withDob, { kind: "webhook", updates: "all" })).status).toBe(201)
      expect((yield* call("PATCH", "/v1/me", token, { dob: "1990-12-10", display_name: "Ada B." })).status).toBe(200)
      const feed = yield* feedOf(carbon.uuid, "account.updated")
      const toDob = feed.find((row) => row.receiver === `app:${withDob.appId}`)!
      expect(toDob.body.data["changed"]).toEqual(["display_name", "dob"])
      expect(toDob.body.data["account"]).toMatchObject({ dob: "1990-12-10", email: carbon.handle + "@example.com" })
      const toPlain = feed.find((row) => row.receiver === `app:${plain.appId}`)!
      expect(toPlain.body.data["changed"]).toEqual(["display_name"])
      expect(toPlain.body.data["account"]).not.toHaveProperty("dob")

      expect((yield* call("PATCH", "/v1/me", token, { dob: "1991-01-01" })).status).toBe(200)
      const dobOnly = yield* feedOf(carbon.uuid, "account.updated")
      expect(dobOnly.filter((row) => row.receiver === `app:${plain.appId}`)).toHaveLength(1)
      expect(dobOnly.filter((row) => row.receiver === `app:${withDob.appId}`)).toHaveLength(2)
    }))

  it.effect("ending an app sign-in tells that app membership.signed_out; other sign-ins tell nobody", () =>
    Effect.gen(function*() {
      const { carbon, token } = yield* signedIn
      const app = yield* memberApp(carbon.uuid)
      const other = yield* memberApp(carbon.uuid)
      const signinId = yield* appSignin(app.appId, carbon.uuid)
      expect((yield* call("DELETE", `/v1/me/sessions/${signinId}`, token)).status).toBe(204)
      const toApp = yield* deliveriesTo(`app:${app.appId}`, "membership.signed_out")
      expect(toApp).toHaveLength(1)
      expect(JSON.parse(toApp[0]!.body).data).toEqual({
        uuid: carbon.uuid,
        membership_id: `${app.appId}:${carbon.uuid}`,
        reason: "revoked_by_account"
      })
      expect(yield* deliveriesTo(`app:${other.appId}`)).toHaveLength(0)
      expect(yield* feedOf(carbon.uuid, "membership.signed_out")).toHaveLength(1)

      yield* appSignin(other.appId, carbon.uuid)
      const all = yield* call("DELETE", "/v1/me/sessions", token)
      expect(all.status).toBe(200)
      expect(yield* deliveriesTo(`app:${other.appId}`, "membership.signed_out")).toHaveLength(1)
      expect(yield* deliveriesTo(`app:${app.appId}`, "membership.signed_out")).toHaveLength(1)
    }))

  it.effect("a custodian's changes to a Silicon: the Silicon's own webhook and its apps hear them", () =>
    Effect.gen(function*() {
      const custodian = yield* createCarbon()
      const { accessToken } = yield* signInDirectly(custodian.uuid)
      const { silicon } = yield* createSilicon({ custodian })
      yield* giveSiliconWebhook(silicon.uuid)
      const app = yield* memberApp(silicon.uuid, { scopes: ["profile", "email", "timezone"] })
      const own = `account:${silicon.uuid}`

      expect((yield* call("PATCH", `/v1/me/silicons/${silicon.uuid}`, accessToken, { display_name: "Agent Y" })).status).toBe(200)
      const updated = yield* deliveriesTo(own, "account.updated")
      expect(updated).toHaveLength(1)
      expect(JSON.parse(updated[0]!.body)).toMatchObject({
        app_id: null,
        silicon: silicon.uuid,
        data: { uuid: silicon.uuid, changed: ["display_name"], account: { display_name: "Agent Y", kind: "silicon" } }
      })
      const toApp = JSON.parse((yield* deliveriesTo(`app:${app.appId}`, "account.updated"))[0]!.body)
      expect(toApp.data.account).toMatchObject({ custodian: { uuid: custodian.uuid, id: `c:${custodian.handle}` } })
      expect(toApp.data.account).not.toHaveProperty("email")

      const newHandle = `s${Date.now().toString(36)}`
      const changed = yield* call("POST", `/v1/me/silicons/${silicon.uuid}/id`, accessToken, { id: `si:${newHandle}` })
      expect(changed.status).toBe(200)
      const idChange = JSON.parse((yield* deliveriesTo(`app:${app.appId}`, "account.id_changed"))[0]!.body)
      expect(idChange.data).toEqual({
        kind: "silicon",
        membership_id: `${app.appId}:${silicon.uuid}`,
        new_id: `si:${newHandle}`,
        old_id: `si:${silicon.handle}`,
        uuid: silicon.uuid
      })
      expect(yield* deliveriesTo(own, "account.id_changed")).toHaveLength(1)

      const appSigninId = yield* appSignin(app.appId, silicon.uuid)
      expect((yield* call("POST", `/v1/me/silicons/${silicon.uuid}/stk`, accessToken, {})).status).toBe(200)
      const rotated = yield* deliveriesTo(own, "silicon.stk_rotated")
      expect(JSON.parse(rotated[0]!.body).data).toEqual({ uuid: silicon.uuid, rotated_at: expect.any(String) })
      // The STK is the Silicon's own business; its app hears only that its sign-in ended.
      expect(yield* deliveriesTo(`app:${app.appId}`, "silicon.stk_rotated")).toHaveLength(0)
      expect(appSigninId).toBeTruthy()
      expect(JSON.parse((yield* deliveriesTo(`app:${app.appId}`, "membership.signed_out"))[0]!.body).data.reason).toBe("stk_rotated")

      expect((yield* call("DELETE", `/v1/me/silicons/${silicon.uuid}`, accessToken)).status).toBe(204)
      const deleted = JSON.parse((yield* deliveriesTo(`app:${app.appId}`, "account.deleted"))[0]!.body)
      expect(deleted.data).toEqual({
        uuid: silicon.uuid,
        membership_id: `${app.appId}:${silicon.uuid}`,
        kind: "silicon",
        id: `si:${newHandle}`
      })
      // Its webhook ends with it: the feed keeps the event, no delivery goes to a removed URL.
      expect(yield* deliveriesTo(own, "account.deleted")).toHaveLength(0)
      expect(yield* feedOf(silicon.uuid, "account.deleted")).toHaveLength(2)
    }))

  it.effect("a transfer accepted: silicon.custodian.accepted to the Silicon and its apps", () =>
    Effect.gen(function*() {
      const ada = yield* createCarbon()
      const bob = yield* createCarbon()
      const adaToken = (yield* signInDirectly(ada.uuid)).accessToken
      const bobToken = (yield* signInDirectly(bob.uuid)).accessToken
      const { silicon } = yield* createSilicon({ custodian: ada })
      const app = yield* memberApp(silicon.uuid)
      const unsubscribed = yield* memberApp(silicon.uuid)
      // Custodian changes are not in the default set: an app asks for them.
      expect((yield* subscribe(app, { kind: "webhook", updates: ["custodian_change"] })).status).toBe(201)
      const request = yield* call("POST", `/v1/me/silicons/${silicon.uuid}/transfer`, adaToken, { to: `c:${bob.handle}` })
      expect(request.status).toBe(201)
      expect((yield* call("POST", `/v1/me/custodian-requests/${request.body.id}/accept`, bobToken)).status).toBe(200)
      const accepted = yield* deliveriesTo(`app:${app.appId}`, "silicon.custodian.accepted")
      expect(JSON.parse(accepted[0]!.body).data).toEqual({
        uuid: silicon.uuid,
        membership_id: `${app.appId}:${silicon.uuid}`,
        request_kind: "transfer",
        custodian: { uuid: bob.uuid, id: `c:${bob.handle}` },
        previous_custodian: { uuid: ada.uuid, id: `c:${ada.handle}` }
      })
      expect(yield* deliveriesTo(`app:${unsubscribed.appId}`, "silicon.custodian.accepted")).toHaveLength(0)
      // The app's stream (no stream subscription: the default set) does not take it either.
      expect((yield* feedOf(silicon.uuid, "silicon.custodian.accepted")).map((row) => row.receiver).sort()).toEqual(
        [`account:${silicon.uuid}`, `app:${app.appId}`].sort()
      )
    }))
})
