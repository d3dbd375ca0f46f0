/**
 * The registry and accounts started side by side, the registry reaching accounts over its internal routes with the
 * shared token (AccountsDirectory and AccountsApps over HTTP, as `npm start` runs them): an app created in the
 * registry exists in accounts with source registry_app, its Carbon owner, and the secret shown once working there;
 * a rotated secret works there; a co-author joining through an invitation is accepted by accounts' rules.
 */
import { FetchHttpClient } from "@effect/platform"
import { layer } from "@effect/vitest"
import { AccountsApps, AccountsDirectory } from "@platform/accounts-identity-api"
import { TestDatabase } from "@platform/database"
import { Context, Effect, Layer, ManagedRuntime, Option, Redacted } from "effect"
import { expect } from "vitest"
import type { CarbonRow } from "../apps/accounts/src/accounts/AccountRow.ts"
import { AccountsRepo } from "../apps/accounts/src/accounts/AccountsRepo.ts"
import { AccountsTest, AccountsUnderTest } from "../apps/accounts/test/support/AccountsUnderTest.ts"
import { registryMigrations } from "../apps/registry/src/migrations.ts"
import { TestIssuer } from "../apps/registry/test/support/issuer.ts"
import { registryServerWith, RegistryUnderTest } from "../apps/registry/test/support/RegistryTest.ts"

const internalToken = "registry-with-accounts-internal-token"

/** Accounts as the test drives it: its URL, and a Carbon made through its own repository. */
class AccountsSide extends Context.Tag("test/AccountsSide")<AccountsSide, {
  readonly url: string
  readonly createCarbon: (handle: string) => Effect.Effect<CarbonRow>
}>() {}

/** Accounts in its own runtime: two HttpApi servers built in one layer would share one router. */
const accountsSide = Layer.scoped(AccountsSide, Effect.gen(function*() {
  const runtime = yield* Effect.acquireRelease(
    Effect.sync(() =>
      ManagedRuntime.make(AccountsRepo.Default.pipe(Layer.provideMerge(AccountsTest({ internalToken: Option.some(Redacted.make(internalToken)) }))))
    ),
    (runtime) => runtime.disposeEffect
  )
  const { url } = yield* Effect.promise(() => runtime.runPromise(AccountsUnderTest))
  return {
    url,
    createCarbon: (handle) =>
      Effect.promise(() =>
        runtime.runPromise(Effect.orDie(Effect.flatMap(AccountsRepo, (accounts) =>
          accounts.createCarbon({ id: `c:${handle}`, displayName: `Carbon ${handle}`, email: `${handle}@example.com` }))))
      )
  }
}))

const registrySide = Layer.unwrapEffect(Effect.map(AccountsSide, ({ url }) => {
  const options = { baseUrl: url, token: Redacted.make(internalToken) }
  const accounts = Layer.mergeAll(AccountsDirectory.layer(options), AccountsApps.layer(options)).pipe(Layer.provide(FetchHttpClient.layer))
  return registryServerWith(TestDatabase.layer(registryMigrations), accounts, { accountsUrl: url })
}))

const fetchJson = (url: string, init: RequestInit = {}) =>
  Effect.promise(async () => {
    const response = await fetch(url, init)
    return { status: response.status, body: await response.json() as any }
  })

/** A registry request as the Carbon (a registry token from the test issuer). */
const asCarbon = (carbon: CarbonRow, method: string, path: string, body?: unknown) =>
  Effect.gen(function*() {
    const { url } = yield* RegistryUnderTest
    const issuer = yield* TestIssuer
    const bearer = yield* Effect.promise(() => issuer.token({ sub: carbon.uuid }))
    return yield* fetchJson(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${bearer}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
  })

/** The app as accounts shows it to the app itself (HTTP Basic with its id and secret). */
const appAtAccounts = (appId: string, secret: string) =>
  Effect.flatMap(AccountsSide, ({ url }) =>
    fetchJson(`${url}/v1/apps/${appId}`, {
      headers: { authorization: `Basic ${Buffer.from(`${appId}:${encodeURIComponent(secret)}`).toString("base64")}` }
    }))

const unique = () => Math.random().toString(36).slice(2, 8)

layer(Layer.provideMerge(registrySide, accountsSide), { excludeTestServices: true })("the registry with accounts", (it) => {
  it.effect("POST /v1/apps creates the app in accounts (source registry_app, the Carbon its owner); its secret and a rotated one work there", () =>
    Effect.gen(function*() {
      const accounts = yield* AccountsSide
      const ada = yield* accounts.createCarbon(`ada${unique()}`)
      const appId = `notes-${unique()}`
      const created = yield* asCarbon(ada, "POST", "/v1/apps", { app_id: appId, name: "Notes", description: "Notes for people and agents." })
      expect(created.status).toBe(201)

      const atAccounts = yield* appAtAccounts(appId, created.body.app_secret)
      expect(atAccounts.status).toBe(200)
      expect(atAccounts.body).toMatchObject({
        app_id: appId,
        name: "Notes",
        description: "Notes for people and agents.",
        source: "registry_app",
        status: "active",
        owner: { uuid: ada.uuid, kind: "carbon" }
      })

      const rotated = yield* asCarbon(ada, "POST", `/v1/apps/${appId}/secret/rotate`)
      expect(rotated.status).toBe(200)
      // The new secret works at once; the old one ends within accounts' 60-second credential cache (spec 1).
      expect((yield* appAtAccounts(appId, rotated.body.app_secret)).status).toBe(200)

      // A co-author joins: accounts takes them (an active Carbon); administration passes and accounts' owner follows.
      const bob = yield* accounts.createCarbon(`bob${unique()}`)
      const invite = yield* asCarbon(ada, "POST", `/v1/apps/${appId}/invites`, { to: `c:${bob.handle}` })
      expect(invite.status).toBe(201)
      expect((yield* asCarbon(bob, "POST", `/v1/invites/${invite.body.id}/accept`, {})).body).toEqual({ status: "accepted" })
      expect((yield* asCarbon(ada, "POST", `/v1/apps/${appId}/authors/leave`)).body).toEqual({ status: "left" })
      expect((yield* appAtAccounts(appId, rotated.body.app_secret)).body.owner.uuid).toBe(bob.uuid)
    }))

  it.effect("an id accounts holds for its own app is taken: 409 app_id_taken, nothing created", () =>
    Effect.gen(function*() {
      const accounts = yield* AccountsSide
      const ada = yield* accounts.createCarbon(`ada${unique()}`)
      const refused = yield* asCarbon(ada, "POST", "/v1/apps", { app_id: "accounts", name: "Mine" })
      expect(refused.status).toBe(409)
      expect(refused.body.error.code).toBe("app_id_taken")
      const { url } = yield* RegistryUnderTest
      expect((yield* fetchJson(`${url}/v1/apps/availability/accounts`)).body.available).toBe(true)
    }))
})
