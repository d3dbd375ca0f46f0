import { expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { sha256Hex } from "@platform/crypto"
import { Effect } from "effect"
import { AccountsTest, AccountsUnderTest } from "./support/AccountsUnderTest.ts"
import { createApp } from "./support/apps.ts"
import { fetchAnswer } from "./support/http.ts"

const call = (path: string, init?: RequestInit) =>
  Effect.flatMap(AccountsUnderTest, ({ url }) => Effect.promise(() => fetchAnswer(`${url}${path}`, init)))
const basic = (appId: string, secret: string) => ({
  authorization: `Basic ${Buffer.from(`${appId}:${secret}`).toString("base64")}`
})

// Areas provide the services they use themselves; one whose state is kept per process must still be
// one per server, not one per area that provides it.
layer(AccountsTest(), { excludeTestServices: true })("state kept per server, shared by the areas", (it) => {
  it.effect("an app credential check at the token endpoint is remembered for the app routes too (60 seconds per server)", () =>
    Effect.gen(function*() {
      const { appId, secret } = yield* createApp()
      const introspected = yield* call("/v1/oauth/introspect", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", ...basic(appId, secret) },
        body: new URLSearchParams({ token: "not-a-token" }).toString()
      })
      expect(introspected.status).toBe(200)
      // The secret changes under the server, as another server would rotate it: only a remembered check still takes the old one.
      const sql = yield* SqlClient.SqlClient
      yield* sql`UPDATE apps SET secret_hash = ${sha256Hex("sas_rotated-elsewhere")} WHERE app_id = ${appId}`
      expect((yield* call(`/v1/apps/${appId}`, { headers: basic(appId, secret) })).status).toBe(200)
      // The change is there for a check not remembered yet.
      expect((yield* call(`/v1/apps/${appId}`, { headers: basic(appId, "sas_rotated-elsewhere") })).status).toBe(200)
      expect((yield* call(`/v1/apps/${appId}`, { headers: basic(appId, `${secret}x`) })).status).toBe(401)
    }))
})
