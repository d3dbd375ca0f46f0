import { expect, layer } from "@effect/vitest"
import { webhookReceiver } from "@platform/testkit"
import { Effect } from "effect"
import { makeAccountsWebhookWorker } from "../src/webhooks/WebhookWorkerLive.ts"
import { AccountsTest, AccountsUnderTest } from "./support/AccountsUnderTest.ts"
import { createApp } from "./support/apps.ts"
import { createCarbon } from "./support/carbons.ts"
import { fetchAnswer } from "./support/http.ts"
import { inOneWindow } from "./support/rateLimits.ts"
import { signInDirectly } from "./support/signIn.ts"
import { createSilicon } from "./support/silicons.ts"
import { enqueueAccountsDelivery, signedWith } from "./support/webhooks.ts"

const send = (method: string, path: string, authorization: string, body?: unknown) =>
  Effect.flatMap(AccountsUnderTest, ({ url }) =>
    Effect.promise(() =>
      fetchAnswer(`${url}${path}`, {
        method,
        headers: { authorization, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })
    ))
const bearer = (token: string) => `Bearer ${token}`
const basic = (app: { appId: string; secret: string }) => `Basic ${Buffer.from(`${app.appId}:${app.secret}`).toString("base64")}`

const siliconWithToken = Effect.gen(function*() {
  const { custodian, silicon } = yield* createSilicon()
  const own = yield* signInDirectly(silicon.uuid)
  const custodianToken = yield* signInDirectly(custodian.uuid)
  return { uuid: silicon.uuid, token: bearer(own.accessToken), custodian: bearer(custodianToken.accessToken) }
})

layer(AccountsTest({ webhookAllowLoopback: true }), { excludeTestServices: true })("Webhook management", (it) => {
  it.scoped("a Silicon sets its webhook, test-pings it (10 per hour), and its pings are never replayed", () =>
    Effect.gen(function*() {
      const receiver = yield* webhookReceiver
      const { token, uuid } = yield* siliconWithToken
      const notSet = yield* send("POST", "/v1/me/webhook/test", token)
      expect(notSet.status).toBe(409)
      expect(notSet.body.error.code).toBe("webhook_not_set")
      const set = yield* send("PUT", "/v1/me/webhook", token, { url: `${receiver.url}/agent` })
      expect(set.status).toBe(200)
      expect(set.headers.get("cache-control")).toBe("no-store")
      const ping = yield* send("POST", "/v1/me/webhook/test", token)
      expect(ping.status).toBe(202)
      const worker = yield* makeAccountsWebhookWorker
      yield* worker.runDue
      const [received] = receiver.received()
      expect(received!.headers).toMatchObject({ "x-accounts-event-type": "ping", "x-accounts-delivery-id": ping.body.delivery_id })
      expect(JSON.parse(received!.rawBody.toString("utf8"))).toMatchObject({
        event_id: ping.body.event_id,
        type: "ping",
        app_id: null,
        silicon: uuid
      })
      expect(signedWith(received!, set.body.webhook_secret)).toBe(true)
      const replay = yield* send("POST", "/v1/me/webhook/replay", token, { delivery_ids: [ping.body.delivery_id] })
      expect(replay.body).toEqual({ replayed: [], skipped: [{ delivery_id: ping.body.delivery_id, reason: "not_replayable" }] })
      // Ten pings an hour, counted in clock-aligned hours: a Silicon of its own for each try, so that an hour's
      // edge passing during the burst starts it again instead of splitting it.
      yield* inOneWindow(3600, () =>
        Effect.gen(function*() {
          const pinger = yield* siliconWithToken
          expect((yield* send("PUT", "/v1/me/webhook", pinger.token, { url: `${receiver.url}/agent` })).status).toBe(200)
          for (let n = 0; n < 10; n++) expect((yield* send("POST", "/v1/me/webhook/test", pinger.token)).status).toBe(202)
          const limited = yield* send("POST", "/v1/me/webhook/test", pinger.token)
          expect(limited.status).toBe(429)
          expect(limited.body.error.code).toBe("rate_limited")
          expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0)
        }))
    }))

  it.scoped("the custodian manages the Silicon's webhook under /v1/me/silicons/{uuid}/webhook…; a Carbon on /v1/me/webhook is 403 silicon_only", () =>
    Effect.gen(function*() {
      const receiver = yield* webhookReceiver
      const { custodian, token, uuid } = yield* siliconWithToken
      const base = `/v1/me/silicons/${uuid}/webhook`
      const set = yield* send("PUT", base, custodian, { url: `${receiver.url}/c` })
      expect(set.body.webhook_secret).toMatch(/^whsec_/)
      const delivery = yield* enqueueAccountsDelivery(`account:${uuid}`)
      const list = yield* send("GET", `${base}/deliveries?status=pending`, custodian)
      expect(list.body).toEqual({ items: [expect.objectContaining({ delivery_id: delivery.id, status: "pending", attempts: 0 })], next_cursor: null })
      expect((yield* send("GET", "/v1/me/webhook/deliveries", token)).body.items).toHaveLength(1)
      expect((yield* send("POST", `${base}/test`, custodian)).status).toBe(202)
      const other = yield* createCarbon()
      const stranger = bearer((yield* signInDirectly(other.uuid)).accessToken)
      expect((yield* send("GET", `${base}/deliveries`, stranger)).body.error.code).toBe("silicon_not_found")
      const carbonOnOwn = yield* send("PUT", "/v1/me/webhook", stranger, { url: "https://hooks.example.com/x" })
      expect(carbonOnOwn.status).toBe(403)
      expect(carbonOnOwn.body.error.code).toBe("silicon_only")
      expect((yield* send("GET", base, token)).status).toBe(405)
      const siliconOnCustody = yield* send("DELETE", base, token)
      expect(siliconOnCustody.body.error.code).toBe("carbon_only")
      expect((yield* send("DELETE", base, custodian)).status).toBe(204)
      expect((yield* send("GET", "/v1/me/webhook/deliveries?status=failed", token)).body.items).toEqual(
        expect.arrayContaining([expect.objectContaining({ delivery_id: delivery.id, last_error: "the webhook URL was removed" })])
      )
    }))

  it.effect("replay bodies: delivery_ids or status, never both, 1 to 100 ids, since an ISO time", () =>
    Effect.gen(function*() {
      const app = yield* createApp()
      yield* send("PUT", `/v1/apps/${app.appId}/webhook`, basic(app), { url: "https://hooks.example.com/app" })
      const replay = (body: unknown) => send("POST", `/v1/apps/${app.appId}/webhook/replay`, basic(app), body)
      for (
        const [body, field] of [
          [{}, "delivery_ids"],
          [{ delivery_ids: ["a"], status: "failed" }, "delivery_ids"],
          [{ delivery_ids: [] }, "delivery_ids"],
          [{ delivery_ids: Array.from({ length: 101 }, (_, n) => `d${n}`) }, "delivery_ids"],
          [{ status: "failed", since: "yesterday" }, "since"],
          [{ delivery_ids: ["a"], since: "2026-01-01T00:00:00Z" }, "since"]
        ] as const
      ) {
        const refused = yield* replay(body)
        expect(refused.status).toBe(422)
        expect(refused.body.error).toMatchObject({ code: "validation_failed", details: { fields: { [field]: expect.any(String) } } })
      }
      expect((yield* replay({ status: "failed", since: "2026-01-01T00:00:00Z" })).body).toEqual({ replayed: [], skipped: [] })
      expect((yield* replay({ delivery_ids: ["nope"] })).body).toEqual({ replayed: [], skipped: [{ delivery_id: "nope", reason: "not_found" }] })
      const otherApp = yield* createApp()
      const mismatch = yield* send("GET", `/v1/apps/${app.appId}/webhook/deliveries`, basic(otherApp))
      expect(mismatch.body.error.code).toBe("app_mismatch")
    }))
})

layer(AccountsTest(), { excludeTestServices: true })("Webhook URLs at setting time", (it) => {
  it.effect("loopback, private and metadata addresses are refused with 422 on url", () =>
    Effect.gen(function*() {
      const app = yield* createApp()
      for (const url of ["http://127.0.0.1/hook", "http://[::1]/hook", "http://10.0.0.1/hook", "http://169.254.169.254/", "https://10.0.0.1/", "https://hooks.internal/", `https://h.example.com/${"a".repeat(2048)}`]) {
        const refused = yield* send("PUT", `/v1/apps/${app.appId}/webhook`, basic(app), { url })
        expect(refused.status).toBe(422)
        expect(refused.body.error).toMatchObject({ code: "validation_failed", details: { fields: { url: expect.any(String) } } })
      }
      const record = yield* send("GET", `/v1/apps/${app.appId}`, basic(app))
      expect(record.body.webhook).toEqual({ url: null, secret_set: false })
      yield* send("PUT", `/v1/apps/${app.appId}/webhook`, basic(app), { url: "https://hooks.example.com/ok" })
      expect((yield* send("GET", `/v1/apps/${app.appId}`, basic(app))).body.webhook).toEqual({ url: "https://hooks.example.com/ok", secret_set: true })
    }))
})
