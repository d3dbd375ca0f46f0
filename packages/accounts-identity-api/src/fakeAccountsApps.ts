import { ValidationFailed } from "@platform/http"
import { Context, Effect, Option, Ref } from "effect"
import type { AccountsAppsService } from "./AccountsApps.ts"
import type { AccountsDirectoryService } from "./AccountsDirectory.ts"
import type { RegistryApp } from "./AppsApi.ts"
import { AccountsUnavailable, AppSourceConflict } from "./errors.ts"

/** One call of the sync route the fake answered (refused ones included). */
export interface SyncCall {
  readonly appId: string
  readonly app: RegistryApp
}

/** What a test does to the in-memory apps behind `AccountsApps.Test`. */
export interface FakeAccountsAppsControl {
  /** Every sync asked, in order. */
  readonly calls: Effect.Effect<ReadonlyArray<SyncCall>>
  /** The app as accounts holds it now (the last accepted sync, the secret digest kept when a sync left it out). */
  readonly app: (appId: string) => Effect.Effect<Option.Option<RegistryApp>>
  /** Makes `appId` an app of another source (first-party, an operator's): its syncs are refused with 409 app_source_conflict. */
  readonly claim: (appId: string) => Effect.Effect<void>
  /** While true every sync fails with AccountsUnavailable, as when accounts is down. */
  readonly setUnavailable: (unavailable: boolean) => Effect.Effect<void>
}

export class FakeAccountsApps extends Context.Tag("@platform/accounts-identity-api/FakeAccountsApps")<
  FakeAccountsApps,
  FakeAccountsAppsControl
>() {}

interface State {
  readonly calls: ReadonlyArray<SyncCall>
  readonly apps: ReadonlyMap<string, RegistryApp>
  readonly claimed: ReadonlySet<string>
  readonly unavailable: boolean
}

const NOT_ACTIVE_CARBON = "is not an active Carbon's uuid"

/** The problems accounts would find with the app's name and authors (its other rules are checked loosely, not at all). */
const problemsOf = (directory: AccountsDirectoryService, app: RegistryApp) =>
  Effect.gen(function*() {
    const fields: Record<string, string> = {}
    const name = app.name.trim()
    if (name.length < 1 || name.length > 200) fields["name"] = "must be 1 to 200 characters"
    const authors = [app.owner_uuid, ...(app.coauthor_uuids ?? [])]
    for (const [index, uuid] of authors.entries()) {
      const identity = yield* directory.byUuid(uuid).pipe(Effect.catchTag("AccountNotFound", () => Effect.succeed(undefined)))
      if (identity?.kind !== "carbon" || identity.status !== "active") {
        fields[index === 0 ? "owner_uuid" : `coauthor_uuids.${index - 1}`] = NOT_ACTIVE_CARBON
      }
    }
    return fields
  })

/** An in-memory AccountsApps and its control, for the registry's tests: accounts' answers and typed refusals. */
export const makeFakeAccountsApps = (directory: AccountsDirectoryService) =>
  Effect.gen(function*() {
    const state = yield* Ref.make<State>({ calls: [], apps: new Map(), claimed: new Set(), unavailable: false })

    const apps: AccountsAppsService = {
      sync: (appId, app) =>
        Effect.gen(function*() {
          const current = yield* Ref.updateAndGet(state, (latest) => ({ ...latest, calls: [...latest.calls, { appId, app }] }))
          if (current.unavailable) return yield* new AccountsUnavailable({ message: "Accounts is unavailable (fake)." })
          if (current.claimed.has(appId)) {
            return yield* new AppSourceConflict({ message: `The app id ${appId} belongs to an app that is not the registry's.` })
          }
          const fields = yield* problemsOf(directory, app)
          if (Object.keys(fields).length > 0) {
            return yield* new ValidationFailed({ message: "The request body has invalid values.", details: { fields } })
          }
          const before = current.apps.get(appId)
          const kept: RegistryApp = { ...app, app_secret_sha256: app.app_secret_sha256 ?? before?.app_secret_sha256 }
          yield* Ref.update(state, (latest) => ({ ...latest, apps: new Map(latest.apps).set(appId, kept) }))
          return { app: { app_id: appId, name: app.name.trim(), status: app.status, source: "registry_app" }, created: before === undefined }
        })
    }

    const control: FakeAccountsAppsControl = {
      calls: Effect.map(Ref.get(state), (current) => current.calls),
      app: (appId) => Effect.map(Ref.get(state), (current) => Option.fromNullable(current.apps.get(appId))),
      claim: (appId) => Ref.update(state, (current) => ({ ...current, claimed: new Set(current.claimed).add(appId) })),
      setUnavailable: (unavailable) => Ref.update(state, (current) => ({ ...current, unavailable }))
    }
    return { apps, control } as const
  })
