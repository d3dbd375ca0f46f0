import { addResponseHeaders, decodeCursor, DEFAULT_PAGE_SIZE, pageOf } from "@platform/http"
import { Effect, Layer, Option } from "effect"
import { AccountsApi } from "../api.ts"
import { requireCarbon } from "../auth/requireCarbon.ts"
import { CurrentAppManager, AppOrAuthorLive } from "./AppOrAuthor.ts"
import { appRecord, ownedApp } from "../apps/AppRecord.ts"
import { AppsRepo, OwnedPosition } from "../apps/AppsRepo.ts"
import { SigninConfigUpdate } from "../apps/SigninConfigUpdate.ts"
import { AppDisabled, UnknownApp } from "../apps/errors.ts"
import { registryAppWrite } from "./registryAppWrite.ts"
import { publicSigninView } from "../apps/signinConfig/index.ts"
import { AppSourceConflict } from "../apps/errors.ts"
import { AccountsRepo } from "../accounts/AccountsRepo.ts"
import { AccountAuthLive } from "../auth/AccountAuth.ts"
import { InternalAuthLive } from "../auth/InternalAuth.ts"
import { AccountsConfig } from "../config.ts"
import { compiledGroup } from "@platform/service"

const unknownApp = (appId: string) => new UnknownApp({ message: `No app has the id ${JSON.stringify(appId)}.` })

const found = (appId: string) => <A>(app: Option.Option<A>): Effect.Effect<A, UnknownApp> =>
  Option.match(app, { onNone: () => Effect.fail(unknownApp(appId)), onSome: Effect.succeed })
/** With the member counts, for answers carrying the App record's `stats`. */
const loadApp = (apps: AppsRepo, appId: string) => Effect.flatMap(apps.findWithStats(appId), found(appId))

const AppsLive = compiledGroup(AccountsApi, "apps", (handlers) =>
  Effect.gen(function*() {
    const apps = yield* AppsRepo
    const { publicUrl } = yield* AccountsConfig
    const configs = yield* SigninConfigUpdate
    // The middleware found the app a moment ago; gone since is a defect, not a 404 the route declares.
    const managedApp = Effect.flatMap(CurrentAppManager, (manager) =>
      loadApp(apps, manager.appId).pipe(Effect.catchTag("UnknownApp", Effect.die)))
    return handlers
      .handle("get", () => Effect.map(managedApp, (app) => appRecord(app, publicUrl)))
      .handle("updateSigninConfig", ({ payload }) =>
        Effect.gen(function*() {
          const manager = yield* CurrentAppManager
          yield* configs.update(manager.appId, payload, manager.kind === "author" ? manager.account.uuid : `app:${manager.appId}`)
          return appRecord(yield* managedApp, publicUrl)
        }))
  })).pipe(Layer.provide([AppsRepo.Default, SigninConfigUpdate.Default, AppOrAuthorLive]))

const AppsPublicLive = compiledGroup(AccountsApi, "appsPublic", (handlers) =>
  Effect.gen(function*() {
    const apps = yield* AppsRepo
    return handlers.handle("public", ({ path }) =>
      Effect.gen(function*() {
        yield* addResponseHeaders({ "access-control-allow-origin": "*", "cache-control": "no-cache" })
        const app = yield* Effect.flatMap(apps.find(path.app_id), found(path.app_id))
        if (app.status === "disabled") return yield* new AppDisabled({ message: "This app is disabled." })
        return {
          app_id: app.app_id,
          name: app.name,
          logo_url: app.logo_url,
          logo_dark_url: app.logo_dark_url,
          homepage_url: app.homepage_url,
          ...publicSigninView(app.signin_config)
        }
      }))
  })).pipe(Layer.provide(AppsRepo.Default))

const OwnedAppsLive = compiledGroup(AccountsApi, "ownedApps", (handlers) =>
  Effect.gen(function*() {
    const apps = yield* AppsRepo
    return handlers.handle("list", ({ urlParams }) =>
      Effect.gen(function*() {
        const carbon = yield* requireCarbon
        const limit = urlParams.limit ?? DEFAULT_PAGE_SIZE
        const after = urlParams.cursor === undefined
          ? Option.none()
          : Option.some(yield* decodeCursor(OwnedPosition, urlParams.cursor))
        const rows = yield* apps.listAuthored(carbon.uuid, limit, after)
        const page = pageOf(rows, limit, (row) => [row.created_at.toISOString(), row.app_id] as const)
        return { items: page.items.map(ownedApp), next_cursor: page.nextCursor }
      }))
  })).pipe(Layer.provide([AccountsRepo.Default, AppsRepo.Default, AccountAuthLive]))

const InternalAppsLive = compiledGroup(AccountsApi, "internalApps", (handlers) =>
  Effect.gen(function*() {
    const apps = yield* AppsRepo
    const { publicUrl } = yield* AccountsConfig
    return handlers.handle("sync", ({ path, payload }) =>
      Effect.gen(function*() {
        const write = yield* registryAppWrite(path.app_id, payload)
        const synced = yield* apps.syncFromRegistry(write)
        if (synced === undefined) {
          return yield* new AppSourceConflict({ message: `The app id ${path.app_id} belongs to an app that is not the registry's.` })
        }
        // Synced a moment ago: gone since is a defect, not a 404 the route declares.
        const app = yield* loadApp(apps, path.app_id).pipe(Effect.catchTag("UnknownApp", Effect.die))
        return { app: appRecord(app, publicUrl), created: synced.created }
      }))
  })).pipe(Layer.provide([AccountsRepo.Default, AppsRepo.Default, InternalAuthLive]))

/** The app-management area: authors' and apps' own routes, the public app view and the registry sync. */
export const AppManagementLive = Layer.mergeAll(AppsLive, AppsPublicLive, OwnedAppsLive, InternalAppsLive)
