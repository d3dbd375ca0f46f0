import { SqlClient } from "@effect/sql"
import { randomToken, sha256Hex } from "@platform/crypto"
import { inTransaction } from "@platform/database"
import { ValidationFailed } from "@platform/http"
import { now } from "@platform/service"
import { Effect, Option } from "effect"
import type { Caller } from "../auth/Caller.ts"
import { HistoryRepo } from "../history/HistoryRepo.ts"
import { resolveAccountIds } from "./AccountIds.ts"
import { type App, appOf } from "./App.ts"
import { AppAccess } from "./AppAccess.ts"
import { AppAccessRepo } from "./AppAccessRepo.ts"
import { AppAuthorsRepo } from "./AppAuthorsRepo.ts"
import type { AccessInput, AppPatch } from "./AppFields.ts"
import { isValidAppId } from "./AppId.ts"
import type { AppRow } from "./AppRow.ts"
import { type AppDetails, AppsRepo } from "./AppsRepo.ts"
import { AppSync } from "./AppSync.ts"
import { AppNotReady } from "./errors.ts"

export const APP_SECRET_PREFIX = "sas_"
const newSecret = () => randomToken(APP_SECRET_PREFIX)

const DESCRIPTION_TO_PUBLISH = { min: 200, max: 600 }

/** What publishing still needs (spec 2: a description of 200 to 600 characters, an accepted package in a release). */
const readinessOf = (app: AppRow, packaged: boolean) => {
  const errors: Array<{ field: string; message: string }> = []
  const length = app.description?.length ?? 0
  if (length < DESCRIPTION_TO_PUBLISH.min || length > DESCRIPTION_TO_PUBLISH.max) {
    errors.push({ field: "description", message: `must be 200 to 600 characters to publish (it has ${length})` })
  }
  if (!packaged) {
    errors.push({ field: "packages", message: "needs at least one accepted package in a release that is not withdrawn" })
  }
  return errors
}

const EMPTY_LINKS = { website: null, developer_docs: null, android: null, ios: null, custom: [] }

/** The app's editable fields after `patch`: links merge by key, everything else replaces. */
const patched = (app: AppRow, patch: AppPatch): AppDetails => {
  const links = { ...EMPTY_LINKS, ...(app.links as object | null) }
  return {
    name: patch.name ?? app.name,
    description: patch.description === undefined ? app.description : patch.description || null,
    logo: patch.logo === undefined ? app.logo : patch.logo,
    banner: patch.banner === undefined ? app.banner : patch.banner,
    carousel: patch.carousel ?? ((app.carousel ?? []) as ReadonlyArray<unknown>),
    links: patch.links === undefined ? links : {
      ...links,
      ...patch.links,
      ...(patch.links.custom === undefined
        ? {}
        : { custom: patch.links.custom.map((link) => ({ label: link.label, url: link.url, logo: link.logo ?? null })) })
    },
    tags: patch.tags ?? app.tags,
    setup_step: patch.setup_step ?? app.setup_step
  }
}

/** The apps area's rules: each change in one transaction with its history item and the sync to accounts. */
export class Apps extends Effect.Service<Apps>()("registry/Apps", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const access = yield* AppAccess
    const apps = yield* AppAccessRepo
    const repo = yield* AppsRepo
    const authors = yield* AppAuthorsRepo
    const history = yield* HistoryRepo
    const accounts = yield* AppSync
    const transaction = inTransaction(sql)

    /** The app as its author sees it now (it was changed a moment ago in this transaction). */
    const shown = (appId: string) =>
      Effect.flatMap(apps.find(appId), Option.match({
        onNone: () => Effect.dieMessage(`app ${appId} vanished during its own change`),
        onSome: (row): Effect.Effect<App> => Effect.succeed(appOf(row, true))
      }))

    const availability = (appId: string) =>
      Effect.gen(function*() {
        const valid = isValidAppId(appId)
        const taken = valid && (yield* repo.exists(appId))
        const lookAlikes = valid ? yield* repo.lookAlikes(appId) : []
        return { available: valid && !taken, reason: valid ? (taken ? "taken" as const : null) : "invalid" as const, look_alikes: lookAlikes }
      })

    const create = (caller: Caller, input: { app_id: string; name: string; description?: string | null | undefined; logo?: string | null | undefined }) =>
      transaction(Effect.gen(function*() {
        const at = yield* now
        const secret = newSecret()
        yield* repo.insert({
          appId: input.app_id,
          name: input.name,
          description: input.description || null,
          logo: input.logo ?? null,
          creatorUuid: caller.uuid,
          secretSha256: sha256Hex(secret),
          at
        })
        yield* authors.add(input.app_id, { uuid: caller.uuid, id: caller.id, displayName: caller.displayName }, at)
        yield* history.record(input.app_id, caller.uuid, "app.created", { name: input.name })
        yield* accounts.syncNew(input.app_id)
        return { app: yield* shown(input.app_id), app_secret: secret }
      }))

    const update = (caller: Caller, appId: string, patch: AppPatch) =>
      transaction(Effect.gen(function*() {
        yield* access.asAuthor(appId, caller)
        const app = Option.getOrThrow(yield* apps.findForUpdate(appId))
        const details = patched(app, patch)
        const length = details.description?.length ?? 0
        if (app.status === "published" && patch.description !== undefined && length < DESCRIPTION_TO_PUBLISH.min) {
          return yield* new ValidationFailed({
            message: "A published app keeps a description of 200 to 600 characters.",
            details: { fields: { description: `must be 200 to 600 characters on a published app (it has ${length})` } }
          })
        }
        yield* repo.writeDetails(appId, details, yield* now)
        yield* history.record(appId, caller.uuid, "app.updated", { fields: Object.keys(patch).sort() })
        yield* accounts.sync(appId)
        return yield* shown(appId)
      }))

    const setAccess = (caller: Caller, appId: string, input: AccessInput) =>
      transaction(Effect.gen(function*() {
        yield* access.asAdministrator(appId, caller)
        const accountIds = yield* resolveAccountIds("account_ids", input.account_ids)
        const domains = [...new Set(input.domains)]
        yield* repo.writeAccess(appId, { visibility: input.visibility, domains, accountIds }, yield* now)
        yield* history.record(appId, caller.uuid, "app.access_changed", {
          visibility: input.visibility,
          domains,
          account_ids: accountIds
        })
        return yield* shown(appId)
      }))

    const readiness = (caller: Caller, appId: string) =>
      Effect.gen(function*() {
        const app = yield* access.asAuthor(appId, caller)
        const errors = readinessOf(app, yield* repo.hasPackagedRelease(appId))
        return { ready: errors.length === 0, errors }
      })

    const publish = (caller: Caller, appId: string) =>
      transaction(Effect.gen(function*() {
        yield* access.asAuthor(appId, caller)
        const app = Option.getOrThrow(yield* apps.findForUpdate(appId))
        if (app.status === "published") return appOf(app, true)
        const errors = readinessOf(app, yield* repo.hasPackagedRelease(appId))
        if (errors.length > 0) {
          return yield* new AppNotReady({
            message: `${appId} is not ready to publish: ${errors.map((error) => `${error.field} ${error.message}`).join("; ")}.`,
            hint: "GET /v1/apps/{app_id}/readiness lists what is missing.",
            details: { errors }
          })
        }
        yield* repo.publish(appId, yield* now)
        yield* history.record(appId, caller.uuid, "app.published")
        yield* accounts.sync(appId)
        return yield* shown(appId)
      }))

    const rotateSecret = (caller: Caller, appId: string) =>
      transaction(Effect.gen(function*() {
        yield* access.asAuthor(appId, caller)
        const secret = newSecret()
        yield* repo.setSecret(appId, sha256Hex(secret), yield* now)
        yield* history.record(appId, caller.uuid, "app.secret_rotated")
        yield* accounts.sync(appId)
        return { app_secret: secret }
      }))

    const historyPage = (caller: Caller, appId: string, limit: number, offset: number) =>
      Effect.zipRight(access.asAuthor(appId, caller), history.page(appId, limit, offset))

    return { availability, create, update, setAccess, readiness, publish, rotateSecret, history: historyPage }
  }),
  dependencies: [AppAccess.Default, AppAccessRepo.Default, AppsRepo.Default, AppAuthorsRepo.Default, HistoryRepo.Default, AppSync.Default]
}) {}
