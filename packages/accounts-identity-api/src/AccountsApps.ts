import { HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"
import type { ValidationFailed } from "@platform/http"
import { Context, Effect, Layer } from "effect"
import type { AccountsDirectoryOptions } from "./AccountsDirectory.ts"
import { AccountsDirectory } from "./AccountsDirectory.ts"
import { AccountsAppsApi, type RegistryApp, type SyncedApp } from "./AppsApi.ts"
import { askedWithin } from "./asked.ts"
import type { AccountsUnavailable, AppSourceConflict } from "./errors.ts"
import { FakeAccountsApps, makeFakeAccountsApps } from "./fakeAccountsApps.ts"

/** Why accounts refused a sync: a field (422, by field: owner or co-author not an active Carbon, a bad URL), or an id of another source (409). */
export type SyncRefusal = ValidationFailed | AppSourceConflict

/** What accounts answered: the app as it holds it now, and whether this call created it. */
export interface Synced {
  readonly app: SyncedApp
  readonly created: boolean
}

/** Accounts' apps as the registry sees them. Every method fails with AccountsUnavailable when accounts cannot answer. */
export interface AccountsAppsService {
  /** Creates or updates the registry's app `appId` at accounts (PUT /v1/internal/apps/{app_id}, source registry_app). */
  readonly sync: (appId: string, app: RegistryApp) => Effect.Effect<Synced, SyncRefusal | AccountsUnavailable>
}

/** Builds the service on `HttpApiClient.make(AccountsAppsApi)`: the internal token on every request, typed refusals. */
export const makeAccountsApps = (options: AccountsDirectoryOptions) =>
  Effect.gen(function*() {
    const client = yield* HttpApiClient.make(AccountsAppsApi, {
      baseUrl: options.baseUrl,
      transformClient: HttpClient.mapRequest(HttpClientRequest.bearerToken(options.token))
    })
    const asked = askedWithin(options.timeout)
    const service: AccountsAppsService = {
      sync: (appId, app) => asked(client.internalApps.sync({ path: { app_id: appId }, payload: app }))
    }
    return service
  })

/**
 * The registry's way to accounts' apps. `AccountsApps.layer({ baseUrl, token })` calls accounts over HTTP
 * (provide an `HttpClient`); `AccountsApps.Test` holds them in memory beside `AccountsDirectory.Test` (authors
 * are checked against its accounts), with `FakeAccountsApps` to read the calls and refuse or go down.
 */
export class AccountsApps extends Context.Tag("@platform/accounts-identity-api/AccountsApps")<
  AccountsApps,
  AccountsAppsService
>() {
  static readonly layer = (options: AccountsDirectoryOptions): Layer.Layer<AccountsApps, never, HttpClient.HttpClient> =>
    Layer.effect(AccountsApps, makeAccountsApps(options))

  /** In memory, with no app yet; owners and co-authors must be active Carbons of the AccountsDirectory provided. */
  static readonly Test: Layer.Layer<AccountsApps | FakeAccountsApps, never, AccountsDirectory> = Layer.effectContext(
    Effect.map(
      Effect.flatMap(AccountsDirectory, makeFakeAccountsApps),
      ({ apps, control }) => Context.make(AccountsApps, apps).pipe(Context.add(FakeAccountsApps, control))
    )
  )
}
