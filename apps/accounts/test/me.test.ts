import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { accountsClient, AccountsTest, AccountsUnderTest } from "./support/AccountsUnderTest.ts"
import { createCarbon } from "./support/carbons.ts"
import { fetchAnswer } from "./support/http.ts"
import { signInDirectly } from "./support/signIn.ts"

const call = (path: string, token: string, init: RequestInit = {}) =>
  Effect.flatMap(AccountsUnderTest, ({ url }) =>
    Effect.promise(() =>
      fetchAnswer(`${url}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...init.headers }
      })
    ))
const patch = (token: string, body: unknown) => call("/v1/me", token, { method: "PATCH", body: JSON.stringify(body) })

layer(AccountsTest(), { excludeTestServices: true })("GET and PATCH /v1/me", (it) => {
  // Through the typed client: the request and the answer are the contract's schemas.
  it.effect("GET /v1/me is the caller's own view", () =>
    Effect.gen(function*() {
      const carbon = yield* createCarbon({ displayName: "Grace" })
      const { accessToken } = yield* signInDirectly(carbon.uuid)
      const client = yield* accountsClient({ authorization: `Bearer ${accessToken}` })
      const me = yield* client.me.get()
      expect(me).toEqual({
        uuid: carbon.uuid,
        kind: "carbon",
        id: `c:${carbon.handle}`,
        display_name: "Grace",
        // No photo of its own: the default picture, on the service's origin.
        pfp_url: `${(yield* AccountsUnderTest).url}/v1/photos/default/${carbon.uuid}`,
        dob: null,
        timezone: "UTC",
        status: "active",
        created_at: carbon.created_at.toISOString(),
        updated_at: carbon.updated_at.toISOString(),
        version: 1
      })
    }))

  it.effect("PATCH changes the fields given, bumps version on a change only, and moves updated_at", () =>
    Effect.gen(function*() {
      const carbon = yield* createCarbon()
      const { accessToken } = yield* signInDirectly(carbon.uuid)
      const client = yield* accountsClient({ authorization: `Bearer ${accessToken}` })
      const changed = yield* client.me.update({ payload: { display_name: "  Ada L.  ", timezone: "europe/london", dob: "1990-12-10" } })
      expect(changed).toMatchObject({ display_name: "Ada L.", timezone: "Europe/London", dob: "1990-12-10", version: 2 })
      expect(Date.parse(changed.updated_at)).toBeGreaterThan(carbon.updated_at.getTime())
      const same = yield* client.me.update({ payload: { display_name: "Ada L." } })
      expect(same.version).toBe(2)
      const again = yield* client.me.update({ payload: { timezone: "Asia/Tokyo" } })
      expect(again).toMatchObject({ version: 3, display_name: "Ada L.", timezone: "Asia/Tokyo" })
    }))

  it.effect("bad values are 422 field by field; unknown fields are refused", () =>
    Effect.gen(function*() {
      const carbon = yield* createCarbon()
      const { accessToken } = yield* signInDirectly(carbon.uuid)
      const bad = yield* patch(accessToken, { display_name: "a\u0007b", timezone: "+01:00", dob: "1899-12-31" })
      expect(bad.status).toBe(422)
      expect(bad.body.error.code).toBe("validation_failed")
      expect(Object.keys(bad.body.error.details.fields).sort()).toEqual(["display_name", "dob", "timezone"])
      const future = yield* patch(accessToken, { dob: "2999-01-01" })
      expect(future.body.error.details.fields.dob).toBe("must be in the past")
      const tooLong = yield* patch(accessToken, { display_name: "x".repeat(101) })
      expect(tooLong.status).toBe(422)
      const unknown = yield* patch(accessToken, { nickname: "ada" })
      expect(unknown.status).toBe(422)
      expect(unknown.body.error.details.fields).toHaveProperty("nickname")
      const unchanged = yield* call("/v1/me", accessToken)
      expect(unchanged.body.version).toBe(1)
    }))

  it.effect("without credentials both are 401", () =>
    Effect.gen(function*() {
      const { url } = yield* AccountsUnderTest
      const res = yield* Effect.promise(() => fetchAnswer(`${url}/v1/me`))
      expect(res.status).toBe(401)
      expect(res.body.error.code).toBe("account_auth_required")
    }))
})
