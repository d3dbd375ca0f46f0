import { expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { AccountsTest } from "./support/AccountsUnderTest.ts"
import { refreshAt, appTokens } from "./support/appTokens.ts"
import { callWithBearer } from "./support/bearer.ts"
import { createCarbon } from "./support/carbons.ts"
import { feedOf, memberApp } from "./support/events.ts"
import { signInDirectly } from "./support/signIn.ts"

const signedIn = Effect.gen(function*() {
  const carbon = yield* createCarbon()
  const { accessToken } = yield* signInDirectly(carbon.uuid)
  return { carbon, token: accessToken }
})

const userinfo = (accessToken: string) => callWithBearer("GET", "/v1/userinfo", accessToken)

const membershipOf = (appId: string, uuid: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ status: string }>`SELECT status FROM memberships WHERE app_id = ${appId} AND account_uuid = ${uuid}`).pipe(
      Effect.orDie,
      Effect.map((rows) => rows[0]?.status)
    )

layer(AccountsTest(), { excludeTestServices: true })("/v1/me/apps over HTTP", (it) => {
  it.effect("GET lists the apps with a membership, newest first, with scopes and last sign-in, in pages; first-party clients left out", () =>
    Effect.gen(function*() {
      const { carbon, token } = yield* signedIn
      const older = yield* memberApp(carbon.uuid, { scopes: ["profile", "email"] })
      const newer = yield* memberApp(carbon.uuid, { status: "imported" })
      const sql = yield* SqlClient.SqlClient
      yield* sql`UPDATE memberships SET created_at = created_at - interval '1 minute' WHERE app_id = ${older.appId}`.pipe(Effect.orDie)
      yield* sql`UPDATE memberships SET last_signin_at = NULL WHERE app_id = ${newer.appId}`.pipe(Effect.orDie)
      yield* sql`
        INSERT INTO memberships (app_id, account_uuid, status, scopes, created_at) VALUES ('accounts', ${carbon.uuid}, 'active', '[]', now())
      `.pipe(Effect.orDie)

      const first = yield* callWithBearer("GET", "/v1/me/apps?limit=1", token)
      expect(first.status).toBe(200)
      expect(first.body.items).toEqual([{
        app_id: newer.appId,
        name: "Test app",
        logo_url: null,
        status: "imported",
        scopes: ["profile"],
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        last_signin_at: null
      }])
      expect(first.body.next_cursor).toEqual(expect.any(String))
      const second = yield* callWithBearer("GET", `/v1/me/apps?limit=1&cursor=${first.body.next_cursor}`, token)
      expect(second.body.items.map((app: any) => [app.app_id, app.status, app.scopes])).toEqual([
        [older.appId, "active", ["profile", "email"]]
      ])
      expect(second.body.items[0].last_signin_at).toEqual(expect.any(String))
      expect(second.body.next_cursor).toBeNull()

      const whole = yield* callWithBearer("GET", "/v1/me/apps", token)
      expect(whole.body.items.map((app: any) => app.app_id)).toEqual([newer.appId, older.appId])
      expect((yield* callWithBearer("GET", "/v1/me/apps?cursor=nonsense", token)).body.error.code).toBe("invalid_cursor")
    }))

  it.effect("DELETE removes access: membership access_removed, the app's tokens fail, membership.access_removed to that app only", () =>
    Effect.gen(function*() {
      const { carbon, token } = yield* signedIn
      const removed = yield* memberApp(carbon.uuid)
      const kept = yield* memberApp(carbon.uuid)
      const removedTokens = yield* appTokens(removed, carbon.uuid)
      const keptTokens = yield* appTokens(kept, carbon.uuid)
      expect((yield* userinfo(removedTokens.accessToken)).status).toBe(200)

      const answer = yield* callWithBearer("DELETE", `/v1/me/apps/${removed.appId}`, token)
      expect(answer.status).toBe(204)
      expect(yield* membershipOf(removed.appId, carbon.uuid)).toBe("access_removed")

      const afterwards = yield* userinfo(removedTokens.accessToken)
      expect(afterwards.status).toBe(401)
      expect(afterwards.body.error.code).toBe("token_revoked")
      const refreshed = yield* refreshAt(removed, removedTokens.refreshToken)
      expect(refreshed.status).toBe(400)
      expect(refreshed.body.error).toBe("invalid_grant")
      // The other app keeps its sign-in.
      expect((yield* userinfo(keptTokens.accessToken)).status).toBe(200)
      expect((yield* refreshAt(kept, keptTokens.refreshToken)).status).toBe(200)

      const feed = yield* feedOf(carbon.uuid, "membership.access_removed")
      expect(feed.map((row) => row.receiver)).toEqual([`app:${removed.appId}`])
      expect(feed[0]!.body).toMatchObject({
        type: "membership.access_removed",
        app_id: removed.appId,
        data: { uuid: carbon.uuid, membership_id: `${removed.appId}:${carbon.uuid}` }
      })
      const listed = yield* callWithBearer("GET", "/v1/me/apps", token)
      expect(listed.body.items.find((app: any) => app.app_id === removed.appId).status).toBe("access_removed")

      // Again: nothing more happens; an app without a membership is 404 unknown_app.
      expect((yield* callWithBearer("DELETE", `/v1/me/apps/${removed.appId}`, token)).status).toBe(204)
      expect(yield* feedOf(carbon.uuid, "membership.access_removed")).toHaveLength(1)
      const unknown = yield* callWithBearer("DELETE", "/v1/me/apps/no-such-app", token)
      expect(unknown.status).toBe(404)
      expect(unknown.body.error.code).toBe("unknown_app")
      const firstParty = yield* callWithBearer("DELETE", "/v1/me/apps/accounts", token)
      expect(firstParty.body.error.code).toBe("unknown_app")
    }))

  it.effect("sign-out of one app revokes its sign-ins, keeps the membership and sends membership.signed_out", () =>
    Effect.gen(function*() {
      const { carbon, token } = yield* signedIn
      const app = yield* memberApp(carbon.uuid)
      const other = yield* memberApp(carbon.uuid)
      const first = yield* appTokens(app, carbon.uuid)
      const second = yield* appTokens(app, carbon.uuid)
      const otherTokens = yield* appTokens(other, carbon.uuid)

      const answer = yield* callWithBearer("POST", `/v1/me/apps/${app.appId}/sign-out`, token)
      expect(answer.status).toBe(200)
      expect(answer.body).toEqual({ revoked: 2 })
      expect(yield* membershipOf(app.appId, carbon.uuid)).toBe("active")
      expect((yield* userinfo(first.accessToken)).body.error.code).toBe("token_revoked")
      expect((yield* refreshAt(app, second.refreshToken)).body.error).toBe("invalid_grant")
      expect((yield* userinfo(otherTokens.accessToken)).status).toBe(200)

      const feed = yield* feedOf(carbon.uuid, "membership.signed_out")
      expect(feed.map((row) => row.receiver)).toEqual([`app:${app.appId}`])
      expect(feed[0]!.body.data).toEqual({
        uuid: carbon.uuid,
        membership_id: `${app.appId}:${carbon.uuid}`,
        reason: "revoked_by_account"
      })
      // Signed in again, the app works; a sign-out with nothing live sends nothing.
      expect((yield* userinfo((yield* appTokens(app, carbon.uuid)).accessToken)).status).toBe(200)
      expect((yield* callWithBearer("POST", `/v1/me/apps/${app.appId}/sign-out`, token)).body).toEqual({ revoked: 1 })
      expect((yield* callWithBearer("POST", `/v1/me/apps/${app.appId}/sign-out`, token)).body).toEqual({ revoked: 0 })
      expect(yield* feedOf(carbon.uuid, "membership.signed_out")).toHaveLength(2)
      const unknown = yield* callWithBearer("POST", "/v1/me/apps/no-such-app/sign-out", token)
      expect([unknown.status, unknown.body.error.code]).toEqual([404, "unknown_app"])
    }))

  it.effect("app tokens and missing credentials are refused on the account's app routes", () =>
    Effect.gen(function*() {
      const { carbon } = yield* signedIn
      const app = yield* memberApp(carbon.uuid)
      const { accessToken } = yield* appTokens(app, carbon.uuid)
      const answer = yield* callWithBearer("DELETE", `/v1/me/apps/${app.appId}`, accessToken)
      expect([answer.status, answer.body.error.code]).toEqual([401, "token_wrong_audience"])
      expect(yield* membershipOf(app.appId, carbon.uuid)).toBe("active")
    }))
})
