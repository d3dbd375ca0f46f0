import { expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { AccountsTest } from "./support/AccountsUnderTest.ts"
import { createCarbon } from "./support/carbons.ts"
import { appSignIn, basicOf, createApp, issued, jsonCall, type TestApp } from "./support/proofs.ts"

const INVALID = { valid: false, expires_at: null }


const verify = (app: TestApp, proofToken: unknown) => jsonCall("POST", "/v1/proofs/verify", basicOf(app), { proof_token: proofToken })

layer(AccountsTest(), { excludeTestServices: true })("the life of a proof", (it) => {
  it.effect("issue, verify by the receiving app (valid) and by any other app (exactly valid:false)", () =>
    Effect.gen(function*() {
      const { carbon, issuer, proof, receiver } = yield* issued({ ttl: 600 })
      expect(proof.status).toBe(201)
      expect(proof.body).toEqual({
        proof_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        kind: "user_verification",
        proof_token: expect.stringMatching(/^sap_/),
        expires_at: expect.any(String),
        proof_refresh_token: expect.stringMatching(/^sapr_/),
        refresh_expires_at: expect.any(String),
        issuing_app: issuer.appId,
        receiving_app: receiver.appId,
        user: { uuid: carbon.uuid, id: `c:${carbon.handle}`, kind: "carbon", membership_id: `${issuer.appId}:${carbon.uuid}` },
        scopes: ["read:files"],
        access_ttl_seconds: 600
      })
      const valid = yield* verify(receiver, proof.body.proof_token)
      expect(valid.status).toBe(200)
      expect(valid.body).toEqual({
        valid: true,
        proof_id: proof.body.proof_id,
        kind: "user_verification",
        expires_at: proof.body.expires_at,
        issuing_app: { app_id: issuer.appId, name: "Test app" },
        receiving_app: { app_id: receiver.appId, name: "Test app" },
        user: proof.body.user,
        scopes: ["read:files"]
      })
      const other = yield* createApp()
      for (const caller of [other, issuer]) {
        const refused = yield* verify(caller, proof.body.proof_token)
        expect(refused.status).toBe(200)
        expect(refused.body).toEqual(INVALID)
        expect(refused.headers.get("x-accounts-hint")).toBeNull()
      }
      const unknown = yield* verify(receiver, "sap_unknown")
      expect(unknown.body).toEqual(INVALID)
      const malformed = yield* jsonCall("POST", "/v1/proofs/verify", basicOf(receiver), { token: 5 })
      expect(malformed.status).toBe(200)
      expect(malformed.body).toEqual(INVALID)
      expect(malformed.headers.get("x-accounts-hint")).toContain("proof_token")
      const sql = yield* SqlClient.SqlClient
      const hashes = yield* sql<{ token_hash: string }>`SELECT token_hash FROM proof_tokens WHERE proof_id = ${proof.body.proof_id}`
      expect(hashes.map((row) => row.token_hash)).toEqual([expect.stringMatching(/^[0-9a-f]{64}$/)])
    }))

  it.effect("refresh: same proof_id, new tokens; an idempotent retry answers the same tokens; reuse revokes the proof", () =>
    Effect.gen(function*() {
      const { issuer, proof, receiver } = yield* issued()
      const refresh = (token: string, key?: string) =>
        jsonCall("POST", "/v1/proofs/refresh", basicOf(issuer), { proof_refresh_token: token }, key === undefined ? {} : { "idempotency-key": key })
      const first = yield* refresh(proof.body.proof_refresh_token, "refresh-1")
      expect(first.status).toBe(200)
      expect(first.body.proof_id).toBe(proof.body.proof_id)
      expect(first.body.proof_token).not.toBe(proof.body.proof_token)
      expect(first.body.proof_refresh_token).not.toBe(proof.body.proof_refresh_token)
      const retry = yield* refresh(proof.body.proof_refresh_token, "refresh-1")
      expect(retry.status).toBe(200)
      expect(retry.body).toEqual(first.body)
      expect((yield* verify(receiver, first.body.proof_token)).body.valid).toBe(true)
      // Only the issuing app refreshes.
      const byOther = yield* jsonCall("POST", "/v1/proofs/refresh", basicOf(receiver), { proof_refresh_token: first.body.proof_refresh_token })
      expect(byOther.status).toBe(403)
      expect(byOther.body.error.code).toBe("not_issuing_app")

      const reused = yield* refresh(proof.body.proof_refresh_token)
      expect(reused.status).toBe(400)
      expect(reused.body.error.code).toBe("proof_refresh_token_reused")
      expect((yield* verify(receiver, first.body.proof_token)).body).toEqual(INVALID)
      const after = yield* refresh(first.body.proof_refresh_token)
      expect(after.status).toBe(410)
      expect(after.body.error.code).toBe("proof_revoked")
      const unknown = yield* refresh("sapr_nothing")
      expect(unknown.status).toBe(400)
      expect(unknown.body.error.code).toBe("invalid_proof_refresh_token")
      const listed = yield* jsonCall("GET", `/v1/apps/${issuer.appId}/proofs`, basicOf(issuer))
      expect(listed.body.items[0]).toMatchObject({ proof_id: proof.body.proof_id, status: "revoked", revoke_reason: "refresh_token_reuse" })
    }))

  it.effect("a proof past its refresh lifetime is 410 proof_expired at refresh, and listed expired", () =>
    Effect.gen(function*() {
      const { issuer, proof } = yield* issued()
      // 900 days (or its sign-in's end) are not waited for on the server's real clock: the proof is aged in the database.
      const sql = yield* SqlClient.SqlClient
      yield* sql`UPDATE proofs SET refresh_expires_at = now() - interval '1 second' WHERE id = ${proof.body.proof_id}`.pipe(Effect.orDie)
      const refreshed = yield* jsonCall("POST", "/v1/proofs/refresh", basicOf(issuer), { proof_refresh_token: proof.body.proof_refresh_token })
      expect([refreshed.status, refreshed.body.error.code]).toEqual([410, "proof_expired"])
      const listed = yield* jsonCall("GET", `/v1/apps/${issuer.appId}/proofs`, basicOf(issuer))
      expect(listed.body.items[0]).toMatchObject({ proof_id: proof.body.proof_id, status: "expired" })
    }))

  it.effect("an idempotent issue retry answers the identical proof", () =>
    Effect.gen(function*() {
      const issuer = yield* createApp()
      const receiver = yield* createApp()
      const carbon = yield* createCarbon()
      const tokens = yield* appSignIn(issuer, carbon.uuid)
      const body = { subject_token: tokens.access_token, receiving_app: receiver.appId }
      const once = yield* jsonCall("POST", "/v1/proofs/user-verification", basicOf(issuer), body, { "idempotency-key": "issue-1" })
      const twice = yield* jsonCall("POST", "/v1/proofs/user-verification", basicOf(issuer), body, { "idempotency-key": "issue-1" })
      expect(once.status).toBe(201)
      expect(twice.status).toBe(201)
      expect(twice.headers.get("idempotent-replayed")).toBe("true")
      expect(twice.body).toEqual(once.body)
    }))

  it.effect("cascades: revoking the sign-in, removing access, deleting the account each turn verify invalid, with the reason listed", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const cases = [
        {
          reason: "sign_in_revoked",
          end: (uuid: string, appId: string) =>
            sql`UPDATE signins SET revoked_at = now(), revoked_reason = 'test' WHERE account_uuid = ${uuid} AND client_id = ${appId}`
        },
        {
          reason: "access_removed",
          end: (uuid: string, appId: string) =>
            sql`UPDATE memberships SET status = 'access_removed' WHERE account_uuid = ${uuid} AND app_id = ${appId}`
        },
        { reason: "account_deleted", end: (uuid: string) => sql`UPDATE accounts SET status = 'deleted', updated_at = now() WHERE uuid = ${uuid}` }
      ]
      for (const { end, reason } of cases) {
        const { carbon, issuer, proof, receiver } = yield* issued()
        expect((yield* verify(receiver, proof.body.proof_token)).body.valid).toBe(true)
        yield* end(carbon.uuid, issuer.appId)
        expect((yield* verify(receiver, proof.body.proof_token)).body).toEqual(INVALID)
        const listed = yield* jsonCall("GET", `/v1/apps/${issuer.appId}/proofs?status=revoked`, basicOf(issuer))
        expect(listed.body.items).toEqual([
          expect.objectContaining({ proof_id: proof.body.proof_id, status: "revoked", revoke_reason: reason, revoked_at: expect.any(String) })
        ])
        const refreshed = yield* jsonCall("POST", "/v1/proofs/refresh", basicOf(issuer), { proof_refresh_token: proof.body.proof_refresh_token })
        expect(refreshed.status).toBe(410)
        expect(refreshed.body.error.code).toBe("proof_revoked")
      }
    }))

  it.effect("revoke by id, token or refresh token; twice does nothing; another app is not_issuing_app", () =>
    Effect.gen(function*() {
      const { issuer, proof, receiver } = yield* issued()
      const revoke = (app: TestApp, body: unknown) => jsonCall("POST", "/v1/proofs/revoke", basicOf(app), body)
      const byOther = yield* revoke(receiver, { proof_id: proof.body.proof_id })
      expect(byOther.status).toBe(403)
      expect(byOther.body.error.code).toBe("not_issuing_app")
      for (const body of [{ proof_token: proof.body.proof_token }, { proof_refresh_token: proof.body.proof_refresh_token }, { proof_id: proof.body.proof_id }]) {
        expect((yield* revoke(issuer, body)).status).toBe(204)
      }
      expect((yield* verify(receiver, proof.body.proof_token)).body).toEqual(INVALID)
      const badId = yield* revoke(issuer, { proof_id: "not-a-uuid" })
      expect(badId.status).toBe(400)
      expect(badId.body.error.code).toBe("invalid_proof_id")
      const missing = yield* revoke(issuer, { proof_id: "00000000-0000-4000-8000-000000000000" })
      expect(missing.status).toBe(404)
      expect(missing.body.error.code).toBe("proof_not_found")
      const two = yield* revoke(issuer, { proof_id: proof.body.proof_id, proof_token: proof.body.proof_token })
      expect(two.status).toBe(422)
      const listed = yield* jsonCall("GET", `/v1/apps/${issuer.appId}/proofs`, basicOf(issuer))
      expect(listed.body.items[0]).toMatchObject({ status: "revoked", revoke_reason: "revoked_by_app" })
    }))
})
