import { expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import sharp from "sharp"
import { AccountsTest, AccountsUnderTest } from "./support/AccountsUnderTest.ts"
import { uniqueEmail } from "./support/addresses.ts"
import { createCarbon } from "./support/carbons.ts"
import { asAccount, withCodeTo } from "./support/contacts.ts"
import { fetchAnswer } from "./support/http.ts"
import { expectRateLimited, freshWindow, spendWindow } from "./support/rateLimits.ts"
import { signInDirectly } from "./support/signIn.ts"

const call = (path: string, init: RequestInit = {}) =>
  Effect.flatMap(AccountsUnderTest, ({ url }) => Effect.promise(() => fetchAnswer(`${url}${path}`, init)))
const send = (method: string, path: string, token: string, body?: unknown) =>
  call(path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })

let counter = 0
const handle = (stem: string) => `${stem}-${Date.now().toString(36)}${counter++}`

const custodianWithSilicon = Effect.gen(function*() {
  const carbon = yield* createCarbon()
  const { accessToken } = yield* signInDirectly(carbon.uuid)
  const siliconHandle = handle("kept")
  const created = yield* send("POST", "/v1/me/silicons", accessToken, { id: siliconHandle, display_name: "Kept Agent" })
  return { carbon, token: accessToken, created, uuid: created.body.silicon.uuid as string, siliconHandle }
})

layer(AccountsTest(), { excludeTestServices: true })("Silicons in custody", (it) => {
  it.effect("a Carbon creates an active Silicon that signs in at once; its secrets are shown once", () =>
    Effect.gen(function*() {
      const { carbon, created, siliconHandle, token } = yield* custodianWithSilicon
      expect(created.status).toBe(201)
      expect(created.headers.get("cache-control")).toBe("no-store")
      expect(created.body.stk).toMatch(/^stk-[0-9a-f]{12}$/)
      expect(created.body.webhook_secret).toBeNull()
      expect(created.body.silicon).toMatchObject({ status: "active", custodian: { uuid: carbon.uuid, kind: "carbon" } })
      const login = yield* call("/v1/silicons/login", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ id: `si:${siliconHandle}`, stk: created.body.stk })
      })
      expect(login.status).toBe(200)
      const list = yield* send("GET", "/v1/me/silicons", token)
      expect(list.body).toMatchObject({ items: [{ uuid: created.body.silicon.uuid, pending_transfer: null }], next_cursor: null })
      // A Silicon cannot manage Silicons.
      const asSilicon = yield* send("GET", "/v1/me/silicons", login.body.access_token)
      expect(asSilicon.status).toBe(403)
      expect(asSilicon.body.error.code).toBe("carbon_only")
    }))

  it.effect("the list pages with an opaque cursor; a forged cursor is 400 invalid_cursor", () =>
    Effect.gen(function*() {
      const { token } = yield* custodianWithSilicon
      for (let n = 0; n < 2; n++) yield* send("POST", "/v1/me/silicons", token, { id: handle("paged"), display_name: `P${n}` })
      const first = yield* send("GET", "/v1/me/silicons?limit=2", token)
      expect(first.body.items).toHaveLength(2)
      expect(first.body.next_cursor).toEqual(expect.any(String))
      const second = yield* send("GET", `/v1/me/silicons?limit=2&cursor=${first.body.next_cursor}`, token)
      expect(second.body.items).toHaveLength(1)
      expect(second.body.next_cursor).toBeNull()
      const uuids = [...first.body.items, ...second.body.items].map((item: any) => item.uuid)
      expect(new Set(uuids).size).toBe(3)
      expect((yield* send("GET", "/v1/me/silicons?cursor=forged", token)).body.error.code).toBe("invalid_cursor")
      expect((yield* send("GET", "/v1/me/silicons?limit=201", token)).status).toBe(400)
    }))

  it.effect("details change with version; dob is immutable; the photo is image bytes", () =>
    Effect.gen(function*() {
      const { created, token, uuid } = yield* custodianWithSilicon
      const patched = yield* send("PATCH", `/v1/me/silicons/${uuid}`, token, { display_name: "Renamed", timezone: "europe/paris" })
      expect(patched.status).toBe(200)
      expect(patched.body).toMatchObject({ display_name: "Renamed", timezone: "Europe/Paris", version: 2 })
      const sameDob = yield* send("PATCH", `/v1/me/silicons/${uuid}`, token, { dob: created.body.silicon.dob })
      expect(sameDob.status).toBe(200)
      const dob = yield* send("PATCH", `/v1/me/silicons/${uuid}`, token, { dob: "2000-01-01" })
      expect(dob.status).toBe(422)
      expect(dob.body.error.code).toBe("dob_immutable")
      // The photo is raw image bytes, as a Carbon's own (photos.test.ts has the rules); a JSON URL is refused.
      const png = yield* Effect.promise(() =>
        sharp({ create: { width: 4, height: 4, channels: 3, background: "#0a0" } }).png().toBuffer())
      const photo = yield* call(`/v1/me/silicons/${uuid}/photo`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "image/png" },
        body: png
      })
      expect(photo.body).toMatchObject({ pfp_url: expect.stringMatching(/\/v1\/photos\/pho_/), version: 3 })
      const json = yield* send("POST", `/v1/me/silicons/${uuid}/photo`, token, { pfp_url: "https://cdn.example.com/a.png" })
      expect(json.status).toBe(415)
      expect(json.body.error.code).toBe("unsupported_media_type")
    }))

  it.effect("an id change keeps the old id for the Silicon for 10 days; 5 changes per 24 hours", () =>
    Effect.gen(function*() {
      const { siliconHandle, token, uuid } = yield* custodianWithSilicon
      const next = handle("renamed")
      const changed = yield* send("POST", `/v1/me/silicons/${uuid}/id`, token, { id: `si:${next}` })
      expect(changed.status).toBe(200)
      expect(changed.body.id).toBe(`si:${next}`)
      const old = yield* call(`/v1/ids/available?id=si:${siliconHandle}`)
      expect(old.body).toMatchObject({ available: false, reason: "id_reserved" })
      // The Silicon may take its own reserved id back.
      expect((yield* send("POST", `/v1/me/silicons/${uuid}/id`, token, { id: siliconHandle })).body.id).toBe(`si:${siliconHandle}`)
      const sql = yield* SqlClient.SqlClient
      const events = yield* sql`SELECT data FROM account_events WHERE account_uuid = ${uuid} AND type = 'account.id_changed'`
      expect(events).toHaveLength(2)
      for (let n = 0; n < 3; n++) expect((yield* send("POST", `/v1/me/silicons/${uuid}/id`, token, { id: handle("again") })).status).toBe(200)
      const sixth = yield* send("POST", `/v1/me/silicons/${uuid}/id`, token, { id: handle("sixth") })
      expect(sixth.status).toBe(429)
      expect(sixth.body.error.code).toBe("rate_limited")
      const other = yield* custodianWithSilicon
      const taken = yield* send("POST", `/v1/me/silicons/${other.uuid}/id`, other.token, { id: `si:${next}` })
      expect(taken.body.error.code).toBe("id_reserved")
      const otherTaken = yield* send("POST", `/v1/me/silicons/${other.uuid}/id`, other.token, { id: `si:${siliconHandle}` })
      expect(otherTaken.status).toBe(409)
    }))

  it.effect("an id another account holds is 409 id_taken with free suggestions; the Silicon keeps its id", () =>
    Effect.gen(function*() {
      const first = yield* custodianWithSilicon
      const second = yield* custodianWithSilicon
      const taken = yield* send("POST", `/v1/me/silicons/${second.uuid}/id`, second.token, { id: `si:${first.siliconHandle}` })
      expect(taken.status).toBe(409)
      expect(taken.body.error.code).toBe("id_taken")
      expect(taken.body.error.details.suggestions).toEqual(expect.arrayContaining([expect.stringMatching(/^si:/)]))
      const kept = yield* send("GET", `/v1/me/silicons/${second.uuid}`, second.token)
      expect(kept.body.id).toBe(`si:${second.siliconHandle}`)
    }))

  it.effect("STK rotation: generated and shown once, or chosen; old sign-ins end; the old STK stops", () =>
    Effect.gen(function*() {
      const { created, siliconHandle, token, uuid } = yield* custodianWithSilicon
      const login = (stk: string) =>
        call("/v1/silicons/login", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ id: `si:${siliconHandle}`, stk })
        })
      const session = yield* login(created.body.stk)
      const rotated = yield* send("POST", `/v1/me/silicons/${uuid}/stk`, token, {})
      expect(rotated.body.stk).toMatch(/^stk-[0-9a-f]{12}$/)
      expect(rotated.headers.get("cache-control")).toBe("no-store")
      expect(rotated.body.rotated_at).toEqual(expect.any(String))
      expect((yield* login(created.body.stk)).status).toBe(401)
      expect((yield* login(rotated.body.stk)).status).toBe(200)
      expect((yield* send("GET", "/v1/me", session.body.access_token)).body.error.code).toBe("token_revoked")
      const chosen = yield* send("POST", `/v1/me/silicons/${uuid}/stk`, token, { stk: "DEADBEEF00" })
      expect(chosen.body.stk).toBeNull()
      expect((yield* login("stk-deadbeef00")).status).toBe(200)
      expect((yield* send("POST", `/v1/me/silicons/${uuid}/stk`, token, { stk: "zz" })).body.error.code).toBe("invalid_stk")
    }))

  it.effect("webhooks: a new secret when set and when rotated, removed once, private addresses refused", () =>
    Effect.gen(function*() {
      const { token, uuid } = yield* custodianWithSilicon
      const set = yield* send("PUT", `/v1/me/silicons/${uuid}/webhook`, token, { url: "https://hooks.example.com/a" })
      expect(set.status).toBe(200)
      expect(set.headers.get("cache-control")).toBe("no-store")
      expect(set.body).toMatchObject({ webhook_url: "https://hooks.example.com/a", webhook_secret: expect.stringMatching(/^whsec_/) })
      const reset = yield* send("PUT", `/v1/me/silicons/${uuid}/webhook`, token, { url: "https://hooks.example.com/b", rotate_secret: true })
      expect(reset.body.webhook_secret).not.toBe(set.body.webhook_secret)
      expect((yield* send("GET", `/v1/me/silicons/${uuid}`, token)).body.webhook_url).toBe("https://hooks.example.com/b")
      const sql = yield* SqlClient.SqlClient
      const stored = yield* sql<{ webhook_secret: string }>`SELECT webhook_secret FROM silicons WHERE account_uuid = ${uuid}`
      expect(stored[0]!.webhook_secret).toBe(reset.body.webhook_secret)
      const privateUrl = yield* send("PUT", `/v1/me/silicons/${uuid}/webhook`, token, { url: "https://192.168.1.10/hook" })
      expect(privateUrl.body.error).toMatchObject({ code: "validation_failed", details: { fields: { url: "must point to a public address" } } })
      const trailingDot = yield* send("PUT", `/v1/me/silicons/${uuid}/webhook`, token, { url: "https://metadata.google.internal./" })
      expect(trailingDot.body.error).toMatchObject({ code: "validation_failed", details: { fields: { url: "must point to a public address" } } })
      expect((yield* send("DELETE", `/v1/me/silicons/${uuid}/webhook`, token)).status).toBe(204)
      expect((yield* send("DELETE", `/v1/me/silicons/${uuid}/webhook`, token)).body.error.code).toBe("webhook_not_set")
    }))

  it.effect("a transfer can be cancelled, and the receiver then finds nothing to accept", () =>
    Effect.gen(function*() {
      const { token, uuid } = yield* custodianWithSilicon
      const bob = yield* createCarbon()
      const bobSession = yield* signInDirectly(bob.uuid)
      const transfer = yield* send("POST", `/v1/me/silicons/${uuid}/transfer`, token, { to: `c:${bob.handle}` })
      const cancelled = yield* send("POST", `/v1/me/silicons/${uuid}/transfer/cancel`, token)
      expect(cancelled.body).toMatchObject({ id: transfer.body.id, status: "cancelled" })
      expect((yield* send("POST", `/v1/me/silicons/${uuid}/transfer/cancel`, token)).body.error.code).toBe("transfer_not_found")
      const late = yield* send("POST", `/v1/me/custodian-requests/${transfer.body.id}/accept`, bobSession.accessToken)
      expect(late.body.error).toMatchObject({ code: "custodian_request_not_pending", details: { status: "cancelled" } })
      const stranger = yield* send("POST", `/v1/me/custodian-requests/${transfer.body.id}/accept`, token)
      expect(stranger.body.error.code).toBe("custodian_request_not_found")
    }))

  it.effect("a transfer accepted after custody moved another way is cancelled: 409 transfer_stale", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const { token, uuid } = yield* custodianWithSilicon
      const bob = yield* createCarbon()
      const carol = yield* createCarbon()
      const transfer = yield* send("POST", `/v1/me/silicons/${uuid}/transfer`, token, { to: `c:${bob.handle}` })
      // Custody moves to Carol by another way while the transfer waits (a guard: no route does this).
      yield* sql`UPDATE silicons SET custodian_uuid = ${carol.uuid} WHERE account_uuid = ${uuid}`.pipe(Effect.orDie)
      const bobSession = yield* signInDirectly(bob.uuid)
      const stale = yield* send("POST", `/v1/me/custodian-requests/${transfer.body.id}/accept`, bobSession.accessToken)
      expect([stale.status, stale.body.error.code]).toEqual([409, "transfer_stale"])
      const again = yield* send("POST", `/v1/me/custodian-requests/${transfer.body.id}/accept`, bobSession.accessToken)
      expect(again.body.error).toMatchObject({ code: "custodian_request_not_pending", details: { status: "cancelled" } })
    }))

  it.effect("a transfer to an email the custodian itself verifies later: accepting it is 409 already_custodian", () =>
    Effect.gen(function*() {
      const { carbon, token, uuid } = yield* custodianWithSilicon
      const later = uniqueEmail("later")
      const transfer = yield* send("POST", `/v1/me/silicons/${uuid}/transfer`, token, { to: later })
      expect(transfer.status).toBe(201)
      // The address no account held when the transfer was asked becomes the custodian's own.
      const api = asAccount(token)
      const sent = yield* withCodeTo(later, api.post("/v1/me/emails", { email: later }))
      expect((yield* api.post("/v1/me/emails/verify", { challenge_id: sent.result.body.challenge_id, code: sent.code })).status).toBe(200)
      const accepted = yield* send("POST", `/v1/me/custodian-requests/${transfer.body.id}/accept`, token)
      expect([accepted.status, accepted.body.error.code]).toEqual([409, "already_custodian"])
      // Nothing moved: the request still waits and custody stays.
      expect((yield* send("GET", `/v1/me/silicons/${uuid}`, token)).body).toMatchObject({
        custodian: { uuid: carbon.uuid },
        pending_transfer: { id: transfer.body.id, status: "pending" }
      })
    }))

  it.effect("transfer requests: 30 per hour per custodian, then 429 rate_limited", () =>
    Effect.gen(function*() {
      const { carbon, token, uuid } = yield* custodianWithSilicon
      const bob = yield* createCarbon()
      yield* freshWindow(3600)
      expect((yield* send("POST", `/v1/me/silicons/${uuid}/transfer`, token, { to: `c:${bob.handle}` })).status).toBe(201)
      yield* send("POST", `/v1/me/silicons/${uuid}/transfer/cancel`, token)
      yield* spendWindow(`silicon_transfers:${carbon.uuid}`, 3600, 30)
      expectRateLimited(yield* send("POST", `/v1/me/silicons/${uuid}/transfer`, token, { to: `c:${bob.handle}` }), "30 per hour per custodian", 3600)
    }))

  it.effect("another Carbon's Silicon is not found, on every route", () =>
    Effect.gen(function*() {
      const { uuid } = yield* custodianWithSilicon
      const stranger = yield* createCarbon()
      const { accessToken } = yield* signInDirectly(stranger.uuid)
      for (
        const [method, path, body] of [
          ["GET", `/v1/me/silicons/${uuid}`, undefined],
          ["PATCH", `/v1/me/silicons/${uuid}`, { display_name: "Mine now" }],
          ["POST", `/v1/me/silicons/${uuid}/stk`, {}],
          ["POST", `/v1/me/silicons/${uuid}/transfer`, { to: `c:${stranger.handle}` }],
          ["DELETE", `/v1/me/silicons/${uuid}`, undefined]
        ] as const
      ) {
        const answer = yield* send(method, path, accessToken, body)
        expect(answer.status, `${method} ${path}`).toBe(404)
        expect(answer.body.error.code).toBe("silicon_not_found")
      }
    }))
})
