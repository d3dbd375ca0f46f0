import { expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { randomHex } from "@platform/crypto"
import { Duration, Effect } from "effect"
import { AccountsTest, AccountsUnderTest } from "./support/AccountsUnderTest.ts"
import { asAccount, signedInCarbon } from "./support/contacts.ts"
import { feedOf, memberApp } from "./support/events.ts"
import { fetchAnswer } from "./support/http.ts"
import { signInDirectly } from "./support/signIn.ts"

const call = (path: string, init: RequestInit = {}) =>
  Effect.flatMap(AccountsUnderTest, ({ url }) => Effect.promise(() => fetchAnswer(`${url}${path}`, init)))

const deleteMe = (token: string, body?: unknown) =>
  call("/v1/me", {
    method: "DELETE",
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })

const refresh = (refreshToken: string) =>
  call("/v1/oauth/token", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "refresh_token", client_id: "accounts", refresh_token: refreshToken }).toString()
  })

const statusOf = (uuid: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ status: string; handle: string | null }>`SELECT status, handle FROM accounts WHERE uuid = ${uuid}`).pipe(
      Effect.orDie,
      Effect.map((rows) => rows[0]!)
    )

/** On the real clock: that a reservation ends after its 10 days is walked on the TestClock in id-change-life.test.ts. */
layer(AccountsTest(), { excludeTestServices: true })("DELETE /v1/me", (it) => {
  it.effect("deletion cascades: tokens and refresh tokens fail at once, apps hear account.deleted, Silicons in custody end, the id is kept 10 days, history stays", () =>
    Effect.gen(function*() {
      const owner = yield* signedInCarbon()
      const second = yield* signInDirectly(owner.carbon.uuid)
      const app = yield* memberApp(owner.carbon.uuid)
      const silicon = yield* owner.api.post("/v1/me/silicons", { id: `agent${randomHex(5)}`, display_name: "Agent" })
      const siliconUuid = silicon.body.silicon.uuid as string
      const siliconSignin = yield* signInDirectly(siliconUuid)
      const handle = `kept${randomHex(5)}`
      expect((yield* owner.api.post("/v1/me/id", { id: `c:${handle}` })).status).toBe(200)

      // Confirmation: the current id typed back, nothing else.
      const missing = yield* deleteMe(owner.accessToken)
      expect(missing.status).toBe(422)
      const wrong = yield* deleteMe(owner.accessToken, { confirm_id: owner.carbon.handle })
      expect(wrong.body.error).toMatchObject({ code: "validation_failed", details: { fields: { confirm_id: expect.any(String) } } })
      expect((yield* owner.api.get("/v1/me")).status).toBe(200)

      const before = Date.now()
      const deleted = yield* deleteMe(owner.accessToken, { confirm_id: `C:${handle.toUpperCase()}` })
      const after = Date.now()
      expect(deleted.status).toBe(204)
      expect(yield* statusOf(owner.carbon.uuid)).toEqual({ status: "deleted", handle: null })

      // Every sign-in ended: access tokens at once, refresh tokens, the Silicon's own.
      expect((yield* owner.api.get("/v1/me")).body.error.code).toBe("token_revoked")
      expect((yield* asAccount(second.accessToken).get("/v1/me")).status).toBe(401)
      expect((yield* refresh(second.refreshToken)).body.error).toBe("invalid_grant")
      expect((yield* asAccount(siliconSignin.accessToken).get("/v1/me")).body.error.code).toBe("token_revoked")

      // Apps heard it; the Silicon in custody is deleted with it and its id is free at once.
      const heard = (yield* feedOf(owner.carbon.uuid, "account.deleted")).filter((row) => row.receiver === `app:${app.appId}`)
      expect(heard).toHaveLength(1)
      expect(heard[0]!.body.data).toMatchObject({ uuid: owner.carbon.uuid })
      expect(yield* statusOf(siliconUuid)).toEqual({ status: "deleted", handle: null })

      // History stays.
      const sql = yield* SqlClient.SqlClient
      const history = yield* sql`SELECT new_id FROM account_id_changes WHERE account_uuid = ${owner.carbon.uuid}`
      expect(history).toEqual([{ new_id: `c:${handle}` }])

      // The id is kept from others for 10 days from the deletion.
      const other = yield* signedInCarbon()
      const reserved = yield* other.api.post("/v1/me/id", { id: `c:${handle}` })
      expect(reserved.body.error.code).toBe("id_reserved")
      const reservedUntil = Date.parse(reserved.body.error.details.reserved_until)
      expect(reservedUntil).toBeGreaterThanOrEqual(before + Duration.toMillis(Duration.days(10)))
      expect(reservedUntil).toBeLessThanOrEqual(after + Duration.toMillis(Duration.days(10)))
    }))

  it.effect("a Silicon cannot delete itself (its custodian does): 403 carbon_only", () =>
    Effect.gen(function*() {
      const custodian = yield* signedInCarbon()
      const handle = `agent${randomHex(5)}`
      const silicon = yield* custodian.api.post("/v1/me/silicons", { id: handle, display_name: "Agent" })
      const { accessToken } = yield* signInDirectly(silicon.body.silicon.uuid)
      const refused = yield* deleteMe(accessToken, { confirm_id: `si:${handle}` })
      expect(refused.status).toBe(403)
      expect(refused.body.error.code).toBe("carbon_only")
      expect((yield* statusOf(silicon.body.silicon.uuid)).status).toBe("active")
    }))
})
