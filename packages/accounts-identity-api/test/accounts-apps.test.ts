import { FetchHttpClient } from "@effect/platform"
import { expect, it, layer } from "@effect/vitest"
import { freePort } from "@platform/testkit"
import { Effect, Layer, Option, Redacted } from "effect"
import { createServer } from "node:http"
import { AccountsApps, AccountsDirectory, type CarbonIdentity, FakeAccountsApps, type SiliconIdentity } from "../src/index.ts"

const ada: CarbonIdentity = {
  uuid: "A1",
  id: "c:ada",
  kind: "carbon",
  display_name: "Ada",
  status: "active",
  verified_emails: ["ada@example.com"],
  verified_phones: []
}
const robo: SiliconIdentity = { uuid: "S1", id: "si:robo", kind: "silicon", display_name: "Robo", status: "active" }
const digest = "a".repeat(64)

layer(AccountsApps.Test.pipe(Layer.provideMerge(AccountsDirectory.fake([ada, robo]))))("AccountsApps.Test", (it) => {
  it.effect("creates then updates, keeps the secret digest a sync leaves out, and records every call", () =>
    Effect.gen(function*() {
      const apps = yield* AccountsApps
      const fake = yield* FakeAccountsApps
      const first = yield* apps.sync("notes", { name: "Notes", owner_uuid: "A1", status: "active", app_secret_sha256: digest })
      expect(first).toEqual({ app: { app_id: "notes", name: "Notes", status: "active", source: "registry_app" }, created: true })
      const second = yield* apps.sync("notes", { name: "Notes 2", owner_uuid: "A1", status: "disabled" })
      expect(second.created).toBe(false)
      expect(Option.getOrThrow(yield* fake.app("notes"))).toMatchObject({ name: "Notes 2", app_secret_sha256: digest })
      expect((yield* fake.calls).map((call) => call.appId)).toEqual(["notes", "notes"])
    }))

  it.effect("refuses as accounts does: authors that are not active Carbons by field, another source's id, and goes down", () =>
    Effect.gen(function*() {
      const apps = yield* AccountsApps
      const fake = yield* FakeAccountsApps
      const refused = yield* Effect.flip(apps.sync("robots", { name: "", owner_uuid: "S1", coauthor_uuids: ["A1", "zz"], status: "active" }))
      expect(refused).toMatchObject({
        code: "validation_failed",
        details: { fields: { name: expect.any(String), owner_uuid: "is not an active Carbon's uuid", "coauthor_uuids.1": expect.any(String) } }
      })
      yield* fake.claim("accounts")
      expect(yield* Effect.flip(apps.sync("accounts", { name: "Mine", owner_uuid: "A1", status: "active" })))
        .toMatchObject({ code: "app_source_conflict", status: 409 })
      yield* fake.setUnavailable(true)
      expect(yield* Effect.flip(apps.sync("notes", { name: "Notes", owner_uuid: "A1", status: "active" })))
        .toMatchObject({ _tag: "AccountsUnavailable", status: 503 })
    }))
})

/** A stand-in for accounts' sync route answering `status` with `body`, and what it was sent. */
const accountsAnswering = (status: number, body: unknown) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const port = await freePort()
      const seen: Array<{ method: string | undefined; url: string | undefined; authorization: string | undefined; body: string }> = []
      const server = createServer((request, response) => {
        let text = ""
        request.on("data", (chunk) => (text += chunk))
        request.on("end", () => {
          seen.push({ method: request.method, url: request.url, authorization: request.headers.authorization, body: text })
          response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body))
        })
      })
      await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve))
      return { server, seen, url: `http://127.0.0.1:${port}` }
    }),
    ({ server }) => Effect.promise(() => new Promise<void>((resolve) => server.close(() => resolve())))
  )

const syncAt = (baseUrl: string) =>
  Effect.flatMap(AccountsApps, (apps) => apps.sync("notes", { name: "Notes", owner_uuid: "A1", status: "active" })).pipe(
    Effect.provide(AccountsApps.layer({ baseUrl, token: Redacted.make("internal") }).pipe(Layer.provide(FetchHttpClient.layer)))
  )

it.live("AccountsApps.layer: PUT with the internal token; accounts' refusals typed, anything else AccountsUnavailable", () =>
  Effect.scoped(Effect.gen(function*() {
    const record = { app_id: "notes", name: "Notes", status: "active", source: "registry_app", signin_config: {} }
    const ok = yield* accountsAnswering(200, { app: record, created: true })
    expect(yield* syncAt(ok.url)).toEqual({ app: { app_id: "notes", name: "Notes", status: "active", source: "registry_app" }, created: true })
    expect(ok.seen).toEqual([{
      method: "PUT",
      url: "/v1/internal/apps/notes",
      authorization: "Bearer internal",
      body: JSON.stringify({ name: "Notes", owner_uuid: "A1", status: "active" })
    }])

    const invalid = yield* accountsAnswering(422, {
      error: { code: "validation_failed", message: "Invalid.", details: { fields: { owner_uuid: "is not an active Carbon's uuid" } } }
    })
    expect(yield* Effect.flip(syncAt(invalid.url))).toMatchObject({ _tag: "ValidationFailed", details: { fields: { owner_uuid: expect.any(String) } } })
    const conflict = yield* accountsAnswering(409, { error: { code: "app_source_conflict", message: "Not the registry's." } })
    expect((yield* Effect.flip(syncAt(conflict.url)))._tag).toBe("AppSourceConflict")
    const refusedToken = yield* accountsAnswering(401, { error: { code: "invalid_internal_token", message: "No." } })
    expect((yield* Effect.flip(syncAt(refusedToken.url)))._tag).toBe("AccountsUnavailable")
    const broken = yield* accountsAnswering(500, { error: { code: "internal_error", message: "Oops." } })
    expect((yield* Effect.flip(syncAt(broken.url)))._tag).toBe("AccountsUnavailable")
  })))
