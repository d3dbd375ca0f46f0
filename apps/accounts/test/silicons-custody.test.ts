import { expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { AccountsTest, AccountsUnderTest } from "./support/AccountsUnderTest.ts"
import { createCarbon } from "./support/carbons.ts"
import { fetchAnswer } from "./support/http.ts"
import { lastMessageTo } from "@platform/testkit"
import { signInDirectly } from "./support/signIn.ts"

const call = (path: string, init: RequestInit = {}) =>
  Effect.flatMap(AccountsUnderTest, ({ url }) => Effect.promise(() => fetchAnswer(`${url}${path}`, init)))
const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  call(path, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) })
const auth = (token: string) => ({ authorization: `Bearer ${token}` })

let counter = 0
const handle = (stem: string) => `${stem}-${Date.now().toString(36)}${counter++}`

const eventsOf = (uuid: string, type: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ data: any }>`SELECT data FROM account_events WHERE account_uuid = ${uuid} AND type = ${type}`.pipe(Effect.orDie))

const carbonWithSession = Effect.gen(function*() {
  const carbon = yield* createCarbon()
  const { accessToken } = yield* signInDirectly(carbon.uuid)
  return { carbon, id: `c:${carbon.handle}`, token: accessToken }
})

layer(AccountsTest(), { excludeTestServices: true })("Silicon custody", (it) => {
  it.effect("the whole life: self-creation, polling, acceptance, STK sign-in, transfer, deletion", () =>
    Effect.gen(function*() {
      const ada = yield* carbonWithSession
      const bob = yield* carbonWithSession
      const siliconHandle = handle("agent")

      const created = yield* post("/v1/silicons", { id: siliconHandle, display_name: "Agent X", custodian: ada.id })
      expect(created.status).toBe(201)
      expect(created.headers.get("cache-control")).toBe("no-store")
      expect(created.body.stk).toMatch(/^stk-[0-9a-f]{12}$/)
      expect(created.body.request_token).toMatch(/^sarq_/)
      expect(created.body.webhook_secret).toBeNull()
      expect(created.body.silicon).toMatchObject({
        kind: "silicon",
        id: `si:${siliconHandle}`,
        status: "pending_custodian",
        custodian: null,
        timezone: "UTC",
        dob: created.body.silicon.created_at.slice(0, 10)
      })
      expect(created.body.request).toMatchObject({ kind: "initial", status: "pending", custodian: ada.id })
      const { request, request_token: requestToken, stk } = created.body
      const uuid = created.body.silicon.uuid

      // The custodian is told by mail.
      const mail = yield* lastMessageTo(`${ada.carbon.handle}@example.com`)
      expect(mail.text).toContain(`si:${siliconHandle}`)

      // Polling with the sarq_ token.
      const polled = yield* call(`/v1/silicons/requests/${request.id}`, { headers: auth(requestToken) })
      expect(polled.status).toBe(200)
      expect(polled.body).toMatchObject({ id: request.id, status: "pending", custodian: ada.id, silicon: { uuid, status: "pending_custodian" } })
      expect((yield* call(`/v1/silicons/requests/${request.id}`)).body.error.code).toBe("request_token_required")
      expect((yield* call(`/v1/silicons/requests/${request.id}`, { headers: auth("sarq_wrong") })).body.error.code)
        .toBe("invalid_request_token")

      // Waiting for the custodian.
      const early = yield* post("/v1/silicons/login", { id: `si:${siliconHandle}`, stk })
      expect(early.status).toBe(403)
      expect(early.body.error).toMatchObject({
        code: "custodian_pending",
        details: { custodian: ada.id, request_id: request.id, expires_at: request.expires_at }
      })

      // Ada accepts.
      const incoming = yield* call("/v1/me/custodian-requests?status=pending", { headers: auth(ada.token) })
      expect(incoming.body.items.map((item: any) => item.id)).toContain(request.id)
      const accepted = yield* post(`/v1/me/custodian-requests/${request.id}/accept`, {}, auth(ada.token))
      expect(accepted.status).toBe(200)
      expect(accepted.body).toMatchObject({ status: "accepted", kind: "initial", from: null, to: { uuid: ada.carbon.uuid } })
      expect(accepted.body.decided_at).not.toBeNull()
      expect((yield* eventsOf(uuid, "silicon.custodian.accepted")).length).toBe(1)
      const again = yield* post(`/v1/me/custodian-requests/${request.id}/accept`, {}, auth(ada.token))
      expect(again.status).toBe(409)
      expect(again.body.error).toMatchObject({ code: "custodian_request_not_pending", details: { status: "accepted" } })

      // STK sign-in, by id and by uuid.
      const signedIn = yield* post("/v1/silicons/login", { id: `si:${siliconHandle}`, stk, client_label: "x".repeat(150) })
      expect(signedIn.status).toBe(200)
      expect(signedIn.body).toMatchObject({ token_type: "Bearer", expires_in: 1800, account: { uuid, kind: "silicon", status: "active" } })
      expect(signedIn.body.account.custodian).toMatchObject({ uuid: ada.carbon.uuid, id: ada.id, kind: "carbon" })
      expect((yield* post("/v1/silicons/login", { id: uuid, stk: stk.toUpperCase() })).status).toBe(200)
      const me = yield* call("/v1/me", { headers: auth(signedIn.body.access_token) })
      expect(me.body).toMatchObject({ uuid, kind: "silicon", webhook_url: null })

      // Transfer to Bob.
      const toSelf = yield* post(`/v1/me/silicons/${uuid}/transfer`, { to: ada.id }, auth(ada.token))
      expect(toSelf.status).toBe(422)
      expect(toSelf.body.error.code).toBe("transfer_to_self")
      const transfer = yield* post(`/v1/me/silicons/${uuid}/transfer`, { to: bob.id }, auth(ada.token))
      expect(transfer.status).toBe(201)
      expect(transfer.body).toMatchObject({ kind: "transfer", status: "pending", from: { uuid: ada.carbon.uuid }, to: { uuid: bob.carbon.uuid } })
      const second = yield* post(`/v1/me/silicons/${uuid}/transfer`, { to: bob.id }, auth(ada.token))
      expect(second.status).toBe(409)
      expect(second.body.error).toMatchObject({ code: "transfer_pending", details: { request_id: transfer.body.id } })
      const viewed = yield* call(`/v1/me/silicons/${uuid}`, { headers: auth(ada.token) })
      expect(viewed.body.pending_transfer).toMatchObject({ id: transfer.body.id })
      const bobAccepts = yield* post(`/v1/me/custodian-requests/${transfer.body.id}/accept`, {}, auth(bob.token))
      expect(bobAccepts.status).toBe(200)
      expect((yield* call(`/v1/me/silicons/${uuid}`, { headers: auth(ada.token) })).body.error.code).toBe("silicon_not_found")
      const bobsView = yield* call(`/v1/me/silicons/${uuid}`, { headers: auth(bob.token) })
      expect(bobsView.body).toMatchObject({ custodian: { uuid: bob.carbon.uuid }, pending_transfer: null })

      // Bob deletes it: the id is free, sign-ins end, the uuid answers account_deleted.
      const deleted = yield* call(`/v1/me/silicons/${uuid}`, { method: "DELETE", headers: auth(bob.token) })
      expect(deleted.status).toBe(204)
      expect((yield* call("/v1/me", { headers: auth(signedIn.body.access_token) })).body.error.code).toBe("token_revoked")
      expect((yield* call(`/v1/ids/available?id=si:${siliconHandle}`)).body.available).toBe(true)
      const byUuid = yield* post("/v1/silicons/login", { id: uuid, stk })
      expect(byUuid.status).toBe(403)
      expect(byUuid.body.error.code).toBe("account_deleted")
      expect((yield* post("/v1/silicons/login", { id: `si:${siliconHandle}`, stk })).body.error.code).toBe("invalid_credentials")
      expect((yield* eventsOf(uuid, "account.deleted")).length).toBe(1)
    }))

  it.effect("a custodian named by email is masked; declining deletes the Silicon and frees its id at once", () =>
    Effect.gen(function*() {
      const ada = yield* carbonWithSession
      const siliconHandle = handle("declined")
      const email = `${ada.carbon.handle}@example.com`
      const created = yield* post("/v1/silicons", { id: `si:${siliconHandle}`, display_name: "Agent Y", custodian: email, stk: "ABCDEF0123" })
      expect(created.status).toBe(201)
      expect(created.body.stk).toBeNull()
      expect(created.body.request.custodian).toBe(`${email[0]}***@example.com`)
      const declined = yield* post(`/v1/me/custodian-requests/${created.body.request.id}/decline`, {}, auth(ada.token))
      expect(declined.status).toBe(200)
      expect(declined.body.status).toBe("declined")
      expect((yield* call(`/v1/ids/available?id=si:${siliconHandle}`)).body.available).toBe(true)
      const polled = yield* call(`/v1/silicons/requests/${created.body.request.id}`, { headers: auth(created.body.request_token) })
      expect(polled.body).toMatchObject({ status: "declined", silicon: { id: null, status: "deleted" } })
      const login = yield* post("/v1/silicons/login", { id: created.body.silicon.uuid, stk: "stk-abcdef0123" })
      expect(login.status).toBe(403)
      expect(login.body.error.code).toBe("custodian_declined")
    }))

  it.effect("deciding late: a Silicon that ended meanwhile is 409 silicon_not_pending; past 14 days 410 custodian_request_expired", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const ada = yield* carbonWithSession
      const ended = yield* post("/v1/silicons", { id: handle("ended"), display_name: "Ended", custodian: ada.id, stk: "0123456789ab" })
      expect(ended.status).toBe(201)
      // The Silicon ends by another way while its request still waits (a guard: no route does this today).
      yield* sql`UPDATE accounts SET status = 'deleted' WHERE uuid = ${ended.body.silicon.uuid}`.pipe(Effect.orDie)
      const notPending = yield* post(`/v1/me/custodian-requests/${ended.body.request.id}/accept`, {}, auth(ada.token))
      expect([notPending.status, notPending.body.error.code]).toEqual([409, "silicon_not_pending"])
      const polled = yield* call(`/v1/silicons/requests/${ended.body.request.id}`, { headers: auth(ended.body.request_token) })
      expect(polled.body.status).toBe("cancelled")

      const late = yield* post("/v1/silicons", { id: handle("late"), display_name: "Late", custodian: ada.id, stk: "0123456789ab" })
      yield* sql`
        UPDATE custodian_requests SET expires_at = ${new Date(Date.now() - 1000)} WHERE id = ${late.body.request.id}
      `.pipe(Effect.orDie)
      const expired = yield* post(`/v1/me/custodian-requests/${late.body.request.id}/accept`, {}, auth(ada.token))
      expect([expired.status, expired.body.error.code]).toEqual([410, "custodian_request_expired"])
      // The Silicon learns why it cannot sign in, once its credentials are proven.
      const login = yield* post("/v1/silicons/login", { id: late.body.silicon.uuid, stk: "stk-0123456789ab" })
      expect([login.status, login.body.error.code]).toEqual([403, "custodian_expired"])
    }))

  it.effect("an email with no account yet: the request waits for whoever verifies it", () =>
    Effect.gen(function*() {
      const email = `${handle("later")}@example.com`
      const created = yield* post("/v1/silicons", { id: handle("waiting"), display_name: "Agent Z", custodian: email })
      expect(created.status).toBe(201)
      const later = yield* createCarbon({ email })
      const { accessToken } = yield* signInDirectly(later.uuid)
      const incoming = yield* call("/v1/me/custodian-requests", { headers: auth(accessToken) })
      expect(incoming.body.items).toHaveLength(1)
      expect(incoming.body.items[0]).toMatchObject({ id: created.body.request.id, to: { uuid: later.uuid } })
      const accepted = yield* post(`/v1/me/custodian-requests/${created.body.request.id}/accept`, {}, auth(accessToken))
      expect(accepted.body).toMatchObject({ status: "accepted", to: { uuid: later.uuid } })
    }))

  it.effect("self-creation is idempotent: the same key returns the same secrets, another body 409", () =>
    Effect.gen(function*() {
      const ada = yield* carbonWithSession
      const body = { id: handle("idem"), display_name: "Agent I", custodian: ada.id, webhook_url: "https://hooks.example.com/agent" }
      const key = { "idempotency-key": `key-${handle("k")}` }
      const first = yield* post("/v1/silicons", body, key)
      const replay = yield* post("/v1/silicons", body, key)
      expect(first.status).toBe(201)
      expect(first.body.webhook_secret).toMatch(/^whsec_/)
      expect(replay.status).toBe(201)
      expect(replay.body).toEqual(first.body)
      const other = yield* post("/v1/silicons", { ...body, display_name: "Someone else" }, key)
      expect(other.status).toBe(409)
      expect(other.body.error.code).toBe("idempotency_key_reused")
      // Past its 10 minutes the answer (it holds the STK) is gone, but the Silicon is not made twice.
      const sql = yield* SqlClient.SqlClient
      yield* sql`
        UPDATE idempotency_keys SET answer_expires_at = ${new Date(Date.now() - 1000)} WHERE key = ${key["idempotency-key"]}
      `.pipe(Effect.orDie)
      const late = yield* post("/v1/silicons", body, key)
      expect([late.status, late.body.error.code]).toEqual([409, "idempotency_result_unavailable"])
    }))

  it.effect("bad bodies: unknown fields, an unknown custodian, a reserved id, a taken id", () =>
    Effect.gen(function*() {
      const ada = yield* carbonWithSession
      const unknown = yield* post("/v1/silicons", { id: handle("u"), display_name: "U", custodian: ada.id, extra: 1 })
      expect(unknown.status).toBe(422)
      expect(unknown.body.error.code).toBe("validation_failed")
      const nobody = yield* post("/v1/silicons", { id: handle("n"), display_name: "N", custodian: "c:nobody-here-at-all" })
      expect(nobody.status).toBe(404)
      expect(nobody.body.error.code).toBe("custodian_not_found")
      const reserved = yield* post("/v1/silicons", { id: "si:admin", display_name: "A", custodian: ada.id })
      expect(reserved.body.error).toMatchObject({ code: "invalid_id", details: { reason: "reserved_word" } })
      const fields = yield* post("/v1/silicons", {
        id: handle("f"),
        display_name: "",
        custodian: ada.id,
        stk: "xyz",
        pfp_url: "http://example.com/p.png",
        webhook_url: "https://10.0.0.1/hook",
        timezone: "Mars/Base"
      })
      expect(fields.status).toBe(422)
      expect(Object.keys(fields.body.error.details.fields).sort()).toEqual(["display_name", "pfp_url", "stk", "timezone", "webhook_url"])
      const taken = handle("taken")
      expect((yield* post("/v1/silicons", { id: taken, display_name: "T", custodian: ada.id })).status).toBe(201)
      const clash = yield* post("/v1/silicons", { id: taken, display_name: "T", custodian: ada.id })
      expect(clash.status).toBe(409)
      expect(clash.body.error.code).toBe("id_taken")
    }))
})

