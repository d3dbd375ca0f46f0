import { expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { randomHex } from "@platform/crypto"
import { Effect } from "effect"
import { AccountsTest } from "./support/AccountsUnderTest.ts"
import { appTokens } from "./support/appTokens.ts"
import { callWithBearer } from "./support/bearer.ts"
import { createCarbon } from "./support/carbons.ts"
import { memberApp } from "./support/events.ts"
import { signInDirectly } from "./support/signIn.ts"
import { createSilicon } from "./support/silicons.ts"

const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/

/** A Carbon with one of every kind of history (proofs aside), and its first-party token. */
const eventfulCarbon = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const carbon = yield* createCarbon()
  const { accessToken: token, signinId } = yield* signInDirectly(carbon.uuid)
  const app = yield* memberApp(carbon.uuid)
  yield* appTokens(app, carbon.uuid)
  expect((yield* callWithBearer("POST", `/v1/me/apps/${app.appId}/sign-out`, token)).status).toBe(200)
  expect((yield* callWithBearer("DELETE", `/v1/me/apps/${app.appId}`, token)).status).toBe(204)
  yield* sql`
    INSERT INTO account_id_changes (account_uuid, old_id, new_id, changed_at)
    VALUES (${carbon.uuid}, 'c:first', 'c:second', now() - interval '2 days'),
           (${carbon.uuid}, 'c:second', ${`c:${carbon.handle}`}, now() - interval '1 day')
  `.pipe(Effect.orDie)
  const { silicon } = yield* createSilicon({ custodian: carbon })
  const decided = `req_${randomHex(8)}`
  yield* sql`
    INSERT INTO custodian_requests (id, kind, status, silicon_uuid, from_uuid, to_uuid, created_at, expires_at, decided_at)
    VALUES (${decided}, 'transfer', 'declined', ${silicon.uuid}, NULL, ${carbon.uuid}, now() - interval '3 days',
            now() + interval '11 days', now() - interval '3 days'),
           (${`req_${randomHex(8)}`}, 'transfer', 'pending', ${silicon.uuid}, NULL, ${carbon.uuid}, now(), now() + interval '14 days', NULL)
  `.pipe(Effect.orDie)
  return { carbon, token, signinId, app, decided }
})

const history = (token: string, query = "") => callWithBearer("GET", `/v1/me/history${query}`, token)

layer(AccountsTest(), { excludeTestServices: true })("GET /v1/me/history over HTTP", (it) => {
  it.effect("every kind, newest first, with each kind's fields", () =>
    Effect.gen(function*() {
      const { app, carbon, decided, signinId, token } = yield* eventfulCarbon
      const answer = yield* history(token)
      expect(answer.status).toBe(200)
      expect(answer.body.next_cursor).toBeNull()
      const items: Array<any> = answer.body.items
      const times = items.map((item) => item.occurred_at)
      expect(times.every((time) => TIMESTAMP.test(time))).toBe(true)
      expect([...times].sort().reverse()).toEqual(times)

      const ofKind = (kind: string) => items.filter((item) => item.kind === kind)
      expect(ofKind("signin")).toEqual(expect.arrayContaining([
        expect.objectContaining({ signin_id: signinId, client_id: "accounts", app_name: "Accounts", method: "cli_code", client_label: "test" }),
        expect.objectContaining({ client_id: app.appId, app_name: "Test app", method: "hosted", client_label: null })
      ]))
      expect(ofKind("signin")).toHaveLength(2)
      expect(ofKind("id_change").map(({ old_id, new_id }) => [old_id, new_id])).toEqual([
        ["c:second", `c:${carbon.handle}`],
        ["c:first", "c:second"]
      ])
      expect(ofKind("custodian")).toEqual([expect.objectContaining({
        kind: "custodian",
        request_id: decided,
        request_kind: "transfer",
        status: "declined",
        from_uuid: null,
        to_uuid: carbon.uuid
      })])
      expect(ofKind("app_access").map((item) => [item.action, item.app_id, item.app_name])).toEqual([
        ["access_removed", app.appId, "Test app"],
        ["signed_out", app.appId, "Test app"],
        ["granted", app.appId, "Test app"]
      ])
      expect(ofKind("security")).toEqual([expect.objectContaining({
        action: "session_revoked",
        reason: "revoked_by_account"
      })])
      expect(ofKind("proof")).toEqual([])
    }))

  it.effect("the kind filter, and a Silicon's STK rotation and key moves under security", () =>
    Effect.gen(function*() {
      const { carbon, token } = yield* eventfulCarbon
      const idChanges = yield* history(token, "?kind=id_change")
      expect(idChanges.body.items).toEqual([
        { kind: "id_change", occurred_at: expect.stringMatching(TIMESTAMP), old_id: "c:second", new_id: `c:${carbon.handle}` },
        { kind: "id_change", occurred_at: expect.stringMatching(TIMESTAMP), old_id: "c:first", new_id: "c:second" }
      ])
      expect((yield* history(token, "?kind=proof")).body).toEqual({ items: [], next_cursor: null })
      const wrong = yield* history(token, "?kind=everything")
      expect([wrong.status, wrong.body.error.code]).toEqual([400, "invalid_query"])

      const sql = yield* SqlClient.SqlClient
      const { silicon } = yield* createSilicon()
      const siliconToken = (yield* signInDirectly(silicon.uuid)).accessToken
      const keyId = `key_${randomHex(8)}`
      yield* sql`
        INSERT INTO silicon_keys (id, silicon_uuid, name, public_jwk, created_at, revoked_at)
        VALUES (${keyId}, ${silicon.uuid}, 'laptop', '{}', now() - interval '2 hours', now() - interval '1 hour')
      `.pipe(Effect.orDie)
      yield* sql`
        INSERT INTO account_events (id, type, account_uuid, occurred_at, data)
        VALUES (${`evt_${randomHex(8)}`}, 'silicon.stk_rotated', ${silicon.uuid}, now() - interval '30 minutes', '{}')
      `.pipe(Effect.orDie)
      const security = yield* history(siliconToken, "?kind=security")
      expect(security.body.items.map((item: any) => [item.action, item.subject_id, item.reason])).toEqual([
        ["stk_rotated", null, null],
        ["key_revoked", keyId, "laptop"],
        ["key_added", keyId, "laptop"]
      ])
    }))

  it.effect("pages follow one another without gaps or repeats, with or without a kind", () =>
    Effect.gen(function*() {
      const { token } = yield* eventfulCarbon
      const whole: Array<unknown> = (yield* history(token)).body.items
      expect(whole.length).toBeGreaterThan(5)
      for (const kind of [undefined, "app_access"]) {
        const expected = kind === undefined ? whole : whole.filter((item: any) => item.kind === kind)
        const walked: Array<unknown> = []
        let cursor: string | null = null
        do {
          const query: string = `?limit=2${kind === undefined ? "" : `&kind=${kind}`}${cursor === null ? "" : `&cursor=${cursor}`}`
          const page = yield* history(token, query)
          expect(page.status).toBe(200)
          expect(page.body.items.length).toBeLessThanOrEqual(2)
          walked.push(...page.body.items)
          cursor = page.body.next_cursor
        } while (cursor !== null)
        expect(walked).toEqual(expected)
      }
      const bad = yield* history(token, "?cursor=bm90IGEgY3Vyc29y")
      expect([bad.status, bad.body.error.code]).toEqual([400, "invalid_cursor"])
    }))
})
