import { expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { AccountsTest } from "./support/AccountsUnderTest.ts"
import { createCarbon } from "./support/carbons.ts"
import { appSignIn, basicOf, createApp, jsonCall, type TestApp } from "./support/proofs.ts"
import { signInDirectly } from "./support/signIn.ts"

const userProof = (issuer: TestApp, receivingApp: string, subjectToken: string) =>
  jsonCall("POST", "/v1/proofs/user-verification", basicOf(issuer), { subject_token: subjectToken, receiving_app: receivingApp })
const appProof = (issuer: TestApp, body: unknown) => jsonCall("POST", "/v1/proofs/app-verification", basicOf(issuer), body)

/** A new Carbon made an author (owner) of the app, signed in to the account site. */
const authorOf = (appId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const carbon = yield* createCarbon()
    yield* sql`INSERT INTO app_authors (app_id, account_uuid, role) VALUES (${appId}, ${carbon.uuid}, 'owner')`
    const { accessToken } = yield* signInDirectly(carbon.uuid)
    return { carbon, bearer: `Bearer ${accessToken}` }
  })

layer(AccountsTest(), { excludeTestServices: true })("issuing proofs: refusals", (it) => {
  it.effect("user verification: every refusal with its status and details.reason", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const issuer = yield* createApp()
      const receiver = yield* createApp()
      const other = yield* createApp()
      const carbon = yield* createCarbon()
      const tokens = yield* appSignIn(issuer, carbon.uuid)
      const refused = (answer: { status: number; body: any }, status: number, code: string) => {
        expect(answer.status).toBe(status)
        expect(answer.body.error.code).toBe(code)
        return answer.body.error
      }
      expect(refused(yield* userProof(issuer, receiver.appId, tokens.refresh_token), 400, "invalid_subject_token").details)
        .toEqual({ reason: "not_an_access_token" })
      expect(refused(yield* userProof(issuer, receiver.appId, "a.b.c"), 400, "invalid_subject_token").details).toEqual({ reason: "invalid" })
      const firstParty = yield* signInDirectly(carbon.uuid)
      refused(yield* userProof(issuer, receiver.appId, firstParty.accessToken), 403, "subject_token_wrong_app")
      refused(yield* userProof(other, receiver.appId, tokens.access_token), 403, "subject_token_wrong_app")
      refused(yield* userProof(issuer, "no-such-app", tokens.access_token), 400, "unknown_receiving_app")
      refused(yield* userProof(issuer, issuer.appId, tokens.access_token), 400, "invalid_receiving_app")
      refused(yield* userProof(issuer, "accounts", tokens.access_token), 400, "invalid_receiving_app")
      yield* sql`UPDATE apps SET status = 'disabled' WHERE app_id = ${other.appId}`
      refused(yield* userProof(issuer, other.appId, tokens.access_token), 403, "receiving_app_disabled")
      const badScopes = yield* jsonCall("POST", "/v1/proofs/user-verification", basicOf(issuer), {
        subject_token: tokens.access_token,
        receiving_app: receiver.appId,
        scopes: ["has space"],
        access_ttl_seconds: 10
      })
      expect(badScopes.status).toBe(422)
      expect(Object.keys(badScopes.body.error.details.fields)).toEqual(expect.arrayContaining(["access_ttl_seconds", "scopes.0"]))
      const noCredentials = yield* jsonCall("POST", "/v1/proofs/user-verification", "", {})
      refused(noCredentials, 401, "app_credentials_required")

      yield* sql`UPDATE memberships SET status = 'access_removed' WHERE app_id = ${issuer.appId} AND account_uuid = ${carbon.uuid}`
      refused(yield* userProof(issuer, receiver.appId, tokens.access_token), 403, "membership_inactive")
      yield* sql`UPDATE accounts SET status = 'pending_custodian' WHERE uuid = ${carbon.uuid}`
      refused(yield* userProof(issuer, receiver.appId, tokens.access_token), 403, "account_not_active")
      yield* sql`UPDATE accounts SET status = 'active' WHERE uuid = ${carbon.uuid}`
      yield* sql`UPDATE signins SET revoked_at = now() WHERE account_uuid = ${carbon.uuid} AND client_id = ${issuer.appId}`
      expect(refused(yield* userProof(issuer, receiver.appId, tokens.access_token), 400, "invalid_subject_token").details)
        .toEqual({ reason: "revoked" })
    }))

  it.effect("app verification: audiences is 422 app_verification_single_app; a new proof replaces the live one for that receiving app", () =>
    Effect.gen(function*() {
      const issuer = yield* createApp()
      const receiver = yield* createApp()
      const single = yield* appProof(issuer, { receiving_app: receiver.appId, audiences: [receiver.appId] })
      expect(single.status).toBe(422)
      expect(single.body.error).toMatchObject({ code: "app_verification_single_app", details: { field: "audiences" } })
      const first = yield* appProof(issuer, { receiving_app: receiver.appId, scopes: ["a"], access_ttl_seconds: 60 })
      expect(first.status).toBe(201)
      expect(first.body).toMatchObject({ kind: "app_verification", user: null, issuing_app: issuer.appId, access_ttl_seconds: 60 })
      const verified = yield* jsonCall("POST", "/v1/proofs/verify", basicOf(receiver), { proof_token: first.body.proof_token })
      expect(verified.body).toMatchObject({ valid: true, kind: "app_verification", user: null, issuing_app: { app_id: issuer.appId } })
      const second = yield* appProof(issuer, { receiving_app: receiver.appId })
      expect(second.body.proof_id).not.toBe(first.body.proof_id)
      const old = yield* jsonCall("POST", "/v1/proofs/verify", basicOf(receiver), { proof_token: first.body.proof_token })
      expect(old.body).toEqual({ valid: false, expires_at: null })
      const live = yield* jsonCall("GET", `/v1/apps/${issuer.appId}/proofs?kind=app_verification&status=active`, basicOf(issuer))
      expect(live.body.items.map((item: any) => item.proof_id)).toEqual([second.body.proof_id])
    }))
})

layer(AccountsTest(), { excludeTestServices: true })("listing and revoking proofs", (it) => {
  it.effect("GET /v1/apps/{app_id}/proofs: newest first, kind and status filters, cursor pages; an author's DELETE is revoked_by_owner", () =>
    Effect.gen(function*() {
      const issuer = yield* createApp()
      const receiver = yield* createApp()
      const carbon = yield* createCarbon()
      const tokens = yield* appSignIn(issuer, carbon.uuid)
      const ids: Array<string> = []
      for (let i = 0; i < 3; i++) ids.push((yield* userProof(issuer, receiver.appId, tokens.access_token)).body.proof_id)
      ids.push((yield* appProof(issuer, { receiving_app: receiver.appId })).body.proof_id)
      const list = (query: string) => jsonCall("GET", `/v1/apps/${issuer.appId}/proofs${query}`, basicOf(issuer))
      const all = yield* list("")
      expect(all.status).toBe(200)
      expect(all.body.items.map((item: any) => item.proof_id)).toEqual([...ids].reverse())
      expect(all.body.items[1]).toEqual({
        proof_id: ids[2],
        kind: "user_verification",
        issuing_app: issuer.appId,
        receiving_app: receiver.appId,
        user: { uuid: carbon.uuid, id: `c:${carbon.handle}`, kind: "carbon", membership_id: `${issuer.appId}:${carbon.uuid}` },
        scopes: [],
        status: "active",
        access_ttl_seconds: 1800,
        created_at: expect.any(String),
        expires_at: expect.any(String),
        token_expires_at: expect.any(String),
        last_refreshed_at: null,
        revoked_at: null,
        revoke_reason: null
      })
      const users = yield* list("?kind=user_verification&limit=2")
      expect(users.body.items.map((item: any) => item.proof_id)).toEqual([ids[2], ids[1]])
      const next = yield* list(`?kind=user_verification&limit=2&cursor=${users.body.next_cursor}`)
      expect(next.body).toEqual({ items: [expect.objectContaining({ proof_id: ids[0] })], next_cursor: null })
      expect((yield* list("?cursor=garbage")).body.error.code).toBe("invalid_cursor")

      const author = yield* authorOf(issuer.appId)
      const removed = yield* jsonCall("DELETE", `/v1/apps/${issuer.appId}/proofs/${ids[0]}`, author.bearer)
      expect(removed.status).toBe(204)
      expect((yield* jsonCall("DELETE", `/v1/apps/${issuer.appId}/proofs/${ids[0]}`, author.bearer)).status).toBe(204)
      const byApp = yield* jsonCall("DELETE", `/v1/apps/${issuer.appId}/proofs/${ids[1]}`, basicOf(issuer))
      expect(byApp.status).toBe(204)
      const revoked = yield* list("?status=revoked")
      expect(revoked.body.items.map((item: any) => [item.proof_id, item.revoke_reason])).toEqual([
        [ids[1], "revoked_by_app"],
        [ids[0], "revoked_by_owner"]
      ])
      const badId = yield* jsonCall("DELETE", `/v1/apps/${issuer.appId}/proofs/nope`, basicOf(issuer))
      expect(badId.body.error.code).toBe("invalid_proof_id")
      const elsewhere = yield* jsonCall("DELETE", `/v1/apps/${receiver.appId}/proofs/${ids[2]}`, basicOf(receiver))
      expect(elsewhere.status).toBe(404)
      expect(elsewhere.body.error.code).toBe("proof_not_found")

      // An author issues an App verification proof without the secret, and lists it among its apps' ones.
      const byAuthor = yield* jsonCall("POST", `/v1/apps/${issuer.appId}/proofs/app-verification`, author.bearer, {
        receiving_app: receiver.appId
      })
      expect(byAuthor.status).toBe(201)
      expect(byAuthor.body.issuing_app).toBe(issuer.appId)
      const mine = yield* jsonCall("GET", "/v1/me/app-verifications", author.bearer)
      expect(mine.body.items.map((item: any) => [item.proof_id, item.status])).toEqual([
        [byAuthor.body.proof_id, "active"],
        [ids[3], "revoked"]
      ])
    }))

  it.effect("/v1/me/proofs: the account lists proofs about itself and revokes one (revoked_by_account)", () =>
    Effect.gen(function*() {
      const issuer = yield* createApp()
      const receiver = yield* createApp()
      const carbon = yield* createCarbon()
      const tokens = yield* appSignIn(issuer, carbon.uuid)
      const proof = yield* userProof(issuer, receiver.appId, tokens.access_token)
      const stranger = yield* signInDirectly((yield* createCarbon()).uuid)
      const { accessToken } = yield* signInDirectly(carbon.uuid)
      const listed = yield* jsonCall("GET", "/v1/me/proofs", `Bearer ${accessToken}`)
      expect(listed.body.items.map((item: any) => item.proof_id)).toEqual([proof.body.proof_id])
      expect((yield* jsonCall("GET", "/v1/me/proofs", `Bearer ${stranger.accessToken}`)).body.items).toEqual([])
      const notTheirs = yield* jsonCall("DELETE", `/v1/me/proofs/${proof.body.proof_id}`, `Bearer ${stranger.accessToken}`)
      expect(notTheirs.status).toBe(404)
      expect((yield* jsonCall("DELETE", `/v1/me/proofs/${proof.body.proof_id}`, `Bearer ${accessToken}`)).status).toBe(204)
      const after = yield* jsonCall("GET", "/v1/me/proofs?status=revoked", `Bearer ${accessToken}`)
      expect(after.body.items[0]).toMatchObject({ proof_id: proof.body.proof_id, revoke_reason: "revoked_by_account" })
      const verified = yield* jsonCall("POST", "/v1/proofs/verify", basicOf(receiver), { proof_token: proof.body.proof_token })
      expect(verified.body).toEqual({ valid: false, expires_at: null })
    }))

  it.effect("account verification requests: authors only, one pending per account", () =>
    Effect.gen(function*() {
      const app = yield* createApp()
      const author = yield* authorOf(app.appId)
      const path = `/v1/apps/${app.appId}/account-verification-request`
      expect((yield* jsonCall("GET", path, author.bearer)).body).toEqual({ request: null, response_time_hours: 48 })
      const filed = yield* jsonCall("POST", path, author.bearer, { reason: "  We run a school.  " })
      expect(filed.status).toBe(201)
      expect(filed.body).toEqual({
        created: true,
        response_time_hours: 48,
        request: {
          request_id: expect.any(String),
          account_uuid: author.carbon.uuid,
          context_app: { app_id: app.appId, name: "Test app", logo_url: null },
          reason: "We run a school.",
          status: "pending",
          submitted_at: expect.any(String),
          response_expected_by: expect.any(String),
          reviewed_at: null
        }
      })
      const again = yield* jsonCall("POST", path, author.bearer, { reason: "Another reason" })
      expect(again.status).toBe(200)
      expect(again.body).toEqual({ ...filed.body, created: false })
      expect((yield* jsonCall("GET", path, author.bearer)).body.request).toEqual(filed.body.request)
      const stranger = yield* signInDirectly((yield* createCarbon()).uuid)
      const refused = yield* jsonCall("POST", path, `Bearer ${stranger.accessToken}`, { reason: "x" })
      expect(refused.status).toBe(403)
      expect(refused.body.error.code).toBe("not_app_owner")
      const basic = yield* jsonCall("GET", path, basicOf(app))
      expect(basic.status).toBe(401)
      const empty = yield* jsonCall("POST", path, author.bearer, { reason: "   " })
      expect(empty.status).toBe(422)
    }))
})
