import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { AccountsTest, AccountsUnderTest } from "./support/AccountsUnderTest.ts"
import { createApp } from "./support/apps.ts"
import { createCarbon } from "./support/carbons.ts"
import { appBasic, deliveriesTo, feedOf, memberApp, subscribe } from "./support/events.ts"
import { fetchAnswer } from "./support/http.ts"
import { signInDirectly } from "./support/signIn.ts"

type App = { readonly appId: string; readonly secret: string }

const asApp = (app: App) => (method: string, path: string, body?: unknown) =>
  Effect.flatMap(AccountsUnderTest, ({ url }) =>
    Effect.promise(() =>
      fetchAnswer(`${url}/v1/apps/${app.appId}/subscriptions${path}`, {
        method,
        headers: { ...appBasic(app), ...(body === undefined ? {} : { "content-type": "application/json" }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })
    ))

const patchMe = (token: string, body: unknown) =>
  Effect.flatMap(AccountsUnderTest, ({ url }) =>
    Effect.promise(() =>
      fetchAnswer(`${url}/v1/me`, {
        method: "PATCH",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(body)
      })
    ))

layer(AccountsTest(), { excludeTestServices: true })("/v1/apps/{app_id}/subscriptions", (it) => {
  it.effect("create, list, get, update, delete; the default set when no updates are chosen", () =>
    Effect.gen(function*() {
      const app = yield* createApp()
      const call = asApp(app)
      const created = yield* call("POST", "", { kind: "webhook" })
      expect(created.status).toBe(201)
      expect(created.body).toEqual({
        id: expect.stringMatching(/^sub_/),
        app_id: app.appId,
        kind: "webhook",
        updates: ["id_change", "display_name_change", "pfp_change", "access_removed", "account_deleted"],
        status: "active",
        created_at: expect.any(String),
        updated_at: created.body.created_at
      })
      const stream = yield* call("POST", "", { kind: "stream", updates: "all", status: "paused" })
      expect(stream.body).toMatchObject({ kind: "stream", updates: "all", status: "paused" })

      const list = yield* call("GET", "")
      expect(list.status).toBe(200)
      expect(list.body).toEqual({ items: [created.body, stream.body], next_cursor: null })
      expect((yield* call("GET", `/${created.body.id}`)).body).toEqual(created.body)

      const changed = yield* call("PATCH", `/${created.body.id}`, { updates: ["email_change", "email_change"], status: "paused" })
      expect(changed.status).toBe(200)
      expect(changed.body).toMatchObject({ updates: ["email_change"], status: "paused" })
      const resumed = yield* call("PATCH", `/${created.body.id}`, { status: "active" })
      expect(resumed.body).toMatchObject({ updates: ["email_change"], status: "active" })

      expect((yield* call("DELETE", `/${created.body.id}`)).status).toBe(204)
      const gone = yield* call("GET", `/${created.body.id}`)
      expect(gone.status).toBe(404)
      expect(gone.body.error.code).toBe("subscription_not_found")
      expect((yield* call("DELETE", `/${created.body.id}`)).status).toBe(404)
      expect((yield* call("PATCH", `/${created.body.id}`, { status: "paused" })).status).toBe(404)
    }))

  it.effect("one subscription per kind: subscription_exists, except for an idempotent retry", () =>
    Effect.gen(function*() {
      const app = yield* createApp()
      const first = yield* subscribe(app, { kind: "webhook" }, { "idempotency-key": "sub-1" })
      expect(first.status).toBe(201)
      const retry = yield* subscribe(app, { kind: "webhook" }, { "idempotency-key": "sub-1" })
      expect(retry.status).toBe(201)
      expect(retry.body).toEqual(first.body)
      const second = yield* subscribe(app, { kind: "webhook", updates: "all" })
      expect(second.status).toBe(409)
      expect(second.body.error.code).toBe("subscription_exists")
      expect((yield* subscribe(app, { kind: "stream" })).status).toBe(201)
      expect((yield* subscribe(app, { kind: "stream" })).status).toBe(409)
      expect((yield* asApp(app)("GET", "")).body.items).toHaveLength(2)
    }))

  it.effect("bad bodies are refused; another app's credentials and strangers are refused", () =>
    Effect.gen(function*() {
      const app = yield* createApp()
      const other = yield* createApp()
      const call = asApp(app)
      expect((yield* call("POST", "", { kind: "email" })).status).toBe(422)
      expect((yield* call("POST", "", { kind: "webhook", updates: ["dob_change"] })).status).toBe(422)
      expect((yield* call("POST", "", { kind: "webhook", updates: [] })).status).toBe(422)
      expect((yield* call("POST", "", { kind: "webhook", extra: 1 })).status).toBe(422)
      const mismatch = yield* Effect.flatMap(AccountsUnderTest, ({ url }) =>
        Effect.promise(() => fetchAnswer(`${url}/v1/apps/${app.appId}/subscriptions`, { headers: appBasic(other) })))
      expect(mismatch.status).toBe(403)
      expect(mismatch.body.error.code).toBe("app_mismatch")
      const stranger = yield* createCarbon()
      const { accessToken } = yield* signInDirectly(stranger.uuid)
      const notOwner = yield* Effect.flatMap(AccountsUnderTest, ({ url }) =>
        Effect.promise(() =>
          fetchAnswer(`${url}/v1/apps/${app.appId}/subscriptions`, { headers: { authorization: `Bearer ${accessToken}` } })
        ))
      expect(notOwner.status).toBe(403)
      expect(notOwner.body.error.code).toBe("not_app_owner")
    }))

  it.effect("update names filter what is recorded; a paused subscription records nothing", () =>
    Effect.gen(function*() {
      const carbon = yield* createCarbon()
      const { accessToken } = yield* signInDirectly(carbon.uuid)
      const app = yield* memberApp(carbon.uuid, { scopes: ["profile", "timezone"] })
      const webhook = yield* subscribe(app, { kind: "webhook", updates: ["timezone_change"] })
      const stream = yield* subscribe(app, { kind: "stream", updates: ["pfp_change"] })

      // A display name change is neither subscription's: no row at all for the app.
      expect((yield* patchMe(accessToken, { display_name: "New name" })).status).toBe(200)
      expect((yield* feedOf(carbon.uuid)).filter((row) => row.receiver === `app:${app.appId}`)).toHaveLength(0)

      // A timezone change: the webhook takes it, the stream does not.
      expect((yield* patchMe(accessToken, { timezone: "Asia/Tokyo" })).status).toBe(200)
      const taken = (yield* feedOf(carbon.uuid)).filter((row) => row.receiver === `app:${app.appId}`)
      expect(taken).toHaveLength(1)
      expect(taken[0]).toMatchObject({ stream: false, body: { data: { changed: ["timezone"] } } })
      expect(yield* deliveriesTo(`app:${app.appId}`)).toHaveLength(1)

      // Paused: nothing is recorded, neither delivery nor feed row.
      yield* asApp(app)("PATCH", `/${webhook.body.id}`, { status: "paused" })
      yield* asApp(app)("PATCH", `/${stream.body.id}`, { updates: "all", status: "paused" })
      expect((yield* patchMe(accessToken, { timezone: "Europe/Paris" })).status).toBe(200)
      expect((yield* feedOf(carbon.uuid)).filter((row) => row.receiver === `app:${app.appId}`)).toHaveLength(1)
      expect(yield* deliveriesTo(`app:${app.appId}`)).toHaveLength(1)

      // Resumed stream of all updates: recorded for the stream only.
      yield* asApp(app)("PATCH", `/${stream.body.id}`, { status: "active" })
      expect((yield* patchMe(accessToken, { timezone: "Europe/Rome" })).status).toBe(200)
      const after = (yield* feedOf(carbon.uuid)).filter((row) => row.receiver === `app:${app.appId}`)
      expect(after.map((row) => row.stream)).toEqual([false, true])
      expect(yield* deliveriesTo(`app:${app.appId}`)).toHaveLength(1)
    }))

  it.effect("test queues a ping to the app's webhook; without a webhook URL, webhook_not_set", () =>
    Effect.gen(function*() {
      const carbon = yield* createCarbon()
      const app = yield* memberApp(carbon.uuid)
      const queued = yield* asApp(app)("POST", "/test")
      expect(queued.status).toBe(202)
      const [ping] = yield* deliveriesTo(`app:${app.appId}`, "ping")
      expect(queued.body).toEqual({ event_id: ping!.event_id, delivery_id: ping!.id })
      expect(JSON.parse(ping!.body)).toEqual({
        event_id: ping!.event_id,
        type: "ping",
        occurred_at: expect.stringMatching(/Z$/),
        app_id: app.appId,
        silicon: null,
        data: { message: expect.any(String), app_id: app.appId }
      })
      expect(yield* feedOf(carbon.uuid)).toHaveLength(0)

      const bare = yield* createApp()
      const refused = yield* asApp(bare)("POST", "/test")
      expect(refused.status).toBe(409)
      expect(refused.body.error.code).toBe("webhook_not_set")
    }))
})
