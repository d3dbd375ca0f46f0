import { expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { webhookReceiver } from "@platform/testkit"
import { Effect } from "effect"
import { makeAccountsWebhookWorker } from "../src/webhooks/WebhookWorkerLive.ts"
import { AccountsTest, AccountsUnderTest } from "./support/AccountsUnderTest.ts"
import { createApp } from "./support/apps.ts"
import { fetchAnswer } from "./support/http.ts"
import { clockLater, enqueueAccountsDelivery, signedWith } from "./support/webhooks.ts"

const asApp = (app: { appId: string; secret: string }, method: string, path: string, body?: unknown) =>
  Effect.flatMap(AccountsUnderTest, ({ url }) =>
    Effect.promise(() =>
      fetchAnswer(`${url}/v1/apps/${app.appId}${path}`, {
        method,
        headers: {
          authorization: `Basic ${Buffer.from(`${app.appId}:${app.secret}`).toString("base64")}`,
          ...(body === undefined ? {} : { "content-type": "application/json" })
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })
    ))

const deliveryRow = (id: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ status: string; attempts: number; last_error: string | null; manual_replays: number }>`
      SELECT status, attempts, last_error, manual_replays FROM webhook_deliveries WHERE id = ${id}
    `).pipe(Effect.orDie, Effect.map((rows) => rows[0]!))

const setStatus = (appId: string, status: "active" | "disabled") =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql`UPDATE apps SET status = ${status} WHERE app_id = ${appId}`).pipe(Effect.orDie)

/** An app whose webhook points at a fresh receiver; answers the secret shown once. */
const appWithReceiver = Effect.gen(function*() {
  const receiver = yield* webhookReceiver
  const app = yield* createApp()
  const set = yield* asApp(app, "PUT", "/webhook", { url: `${receiver.url}/hook` })
  expect(set.status).toBe(200)
  return { app, receiver, secret: set.body.webhook_secret as string }
})

layer(AccountsTest({ webhookAllowLoopback: true }), { excludeTestServices: true })("Accounts webhook delivery", (it) => {
  it.scoped("an app's delivery is POSTed with the X-Accounts headers, signed over the raw bytes with the current secret; a rotation mid-retry signs the next attempt", () =>
    Effect.gen(function*() {
      const { app, receiver, secret } = yield* appWithReceiver
      receiver.answerWith(() => ({ status: receiver.received().length === 1 ? 500 : 200 }))
      const worker = yield* makeAccountsWebhookWorker
      const { body, eventId, id } = yield* enqueueAccountsDelivery(`app:${app.appId}`)
      yield* worker.runDue
      expect(yield* deliveryRow(id)).toMatchObject({ status: "pending", attempts: 1, last_error: "answered HTTP 500" })
      const rotated = yield* asApp(app, "PUT", "/webhook", { url: `${receiver.url}/hook`, rotate_secret: true })
      const newSecret = rotated.body.webhook_secret as string
      expect(newSecret).toMatch(/^whsec_/)
      expect(newSecret).not.toBe(secret)
      yield* Effect.withClock(worker.runDue, clockLater("10 seconds"))
      expect(yield* deliveryRow(id)).toMatchObject({ status: "delivered", attempts: 2 })
      const [first, second] = receiver.received()
      expect(first!.headers).toMatchObject({
        "content-type": "application/json",
        "user-agent": "AccountsWebhooks/1",
        "x-accounts-event-id": eventId,
        "x-accounts-event-type": "account.updated",
        "x-accounts-delivery-id": id
      })
      expect(second!.headers["x-accounts-delivery-id"]).toBe(id)
      expect(second!.rawBody.toString("utf8")).toBe(body)
      expect(signedWith(first!, secret)).toBe(true)
      expect(signedWith(second!, newSecret)).toBe(true)
      expect(signedWith(second!, secret)).toBe(false)
      // Without rotate_secret the secret stays, and none is shown.
      const kept = yield* asApp(app, "PUT", "/webhook", { url: `${receiver.url}/other` })
      expect(kept.body).toEqual({ webhook_url: `${receiver.url}/other`, webhook_secret: null })
    }))

  it.scoped("a disabled app's deliveries are held, sent once it is re-enabled within 72 hours, failed after", () =>
    Effect.gen(function*() {
      const { app, receiver } = yield* appWithReceiver
      const worker = yield* makeAccountsWebhookWorker
      yield* setStatus(app.appId, "disabled")
      const early = yield* enqueueAccountsDelivery(`app:${app.appId}`)
      const late = yield* enqueueAccountsDelivery(`app:${app.appId}`, { occurredAt: new Date(Date.now() - 71 * 3_600_000) })
      yield* worker.runDue
      expect(yield* deliveryRow(early.id)).toMatchObject({ status: "pending", attempts: 0, last_error: "the app is disabled" })
      yield* Effect.withClock(worker.runDue, clockLater("1 hour"))
      expect(yield* deliveryRow(late.id)).toMatchObject({
        status: "failed",
        last_error: "the app is disabled; held until the retry window ended"
      })
      yield* setStatus(app.appId, "active")
      yield* Effect.withClock(worker.runDue, clockLater("2 hours"))
      expect(yield* deliveryRow(early.id)).toMatchObject({ status: "delivered", attempts: 1 })
      expect(receiver.received().map((request) => request.headers["x-accounts-delivery-id"])).toEqual([early.id])
    }))

  it.scoped("removing the URL fails the pending deliveries; replay needs a webhook, then sends them again with the same ids", () =>
    Effect.gen(function*() {
      const { app, receiver } = yield* appWithReceiver
      const worker = yield* makeAccountsWebhookWorker
      const pending = yield* enqueueAccountsDelivery(`app:${app.appId}`)
      expect((yield* asApp(app, "DELETE", "/webhook")).status).toBe(204)
      expect((yield* asApp(app, "DELETE", "/webhook")).body.error.code).toBe("webhook_not_set")
      expect(yield* deliveryRow(pending.id)).toMatchObject({ status: "failed", last_error: "the webhook URL was removed" })
      const refused = yield* asApp(app, "POST", "/webhook/replay", { status: "failed" })
      expect(refused.status).toBe(409)
      expect(refused.body.error.code).toBe("webhook_not_set")
      const set = yield* asApp(app, "PUT", "/webhook", { url: `${receiver.url}/back` })
      expect(set.body.webhook_secret).toMatch(/^whsec_/)
      const replay = yield* asApp(app, "POST", "/webhook/replay", { status: "failed" })
      expect(replay.body).toEqual({ replayed: [pending.id], skipped: [] })
      yield* worker.runDue
      const list = yield* asApp(app, "GET", "/webhook/deliveries")
      expect(list.body.items).toEqual([expect.objectContaining({
        delivery_id: pending.id,
        event_id: pending.eventId,
        status: "delivered",
        // Failing on removal is no attempt; the replay's is the first.
        attempts: 1,
        manual_replays: 1,
        last_error: null
      })])
      expect(signedWith(receiver.received()[0]!, set.body.webhook_secret)).toBe(true)
    }))

  it.scoped("two workers on one database never deliver one delivery twice", () =>
    Effect.gen(function*() {
      const { app, receiver } = yield* appWithReceiver
      receiver.answerWith(() => ({ status: 200, delayMillis: 10 }))
      const workers = [yield* makeAccountsWebhookWorker, yield* makeAccountsWebhookWorker]
      const ids = yield* Effect.forEach(Array.from({ length: 30 }), () => Effect.map(enqueueAccountsDelivery(`app:${app.appId}`), (d) => d.id))
      const drain = (worker: (typeof workers)[number]) =>
        Effect.iterate(1, { while: (ran) => ran > 0, body: () => worker.runDue }).pipe(Effect.orDie)
      yield* Effect.all(workers.map(drain), { concurrency: "unbounded" })
      const delivered = receiver.received().map((request) => String(request.headers["x-accounts-delivery-id"]))
      expect([...delivered].sort()).toEqual([...ids].sort())
    }))
})
