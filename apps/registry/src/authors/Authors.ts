import { SqlClient } from "@effect/sql"
import { inTransaction } from "@platform/database"
import { now } from "@platform/service"
import { Effect, Option } from "effect"
import { AppAccess } from "../apps/AppAccess.ts"
import { AppAccessRepo } from "../apps/AppAccessRepo.ts"
import { type AuthorRow, AppAuthorsRepo } from "../apps/AppAuthorsRepo.ts"
import { AppsRepo } from "../apps/AppsRepo.ts"
import { AppSync } from "../apps/AppSync.ts"
import type { Caller } from "../auth/Caller.ts"
import { HistoryRepo } from "../history/HistoryRepo.ts"
import { AuthorNotFound, CannotRemoveSelf, LastAuthor, LastCarbonAuthor } from "./errors.ts"

const isCarbon = (author: AuthorRow) => author.account_id?.startsWith("c:") === true

/** Refuses a change leaving Silicon authors without any Carbon (accounts keeps a Carbon owner for every app). */
const keepsCarbon = (before: ReadonlyArray<AuthorRow>, after: ReadonlyArray<AuthorRow>) =>
  before.some(isCarbon) && after.length > 0 && !after.some(isCarbon)
    ? Effect.fail(
      new LastCarbonAuthor({
        message: "The app's last Carbon author cannot go while Silicon authors remain.",
        hint: "Invite a Carbon first: accounts holds every app with a Carbon as its owner."
      })
    )
    : Effect.void

const authorNotFound = (uuid: string) => new AuthorNotFound({ message: `No author of this app has the uuid ${uuid}.` })

/** The authors area's rules: each change under the app's row lock, with its history item and the sync to accounts. */
export class Authors extends Effect.Service<Authors>()("registry/Authors", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const access = yield* AppAccess
    const apps = yield* AppAccessRepo
    const repo = yield* AppsRepo
    const authors = yield* AppAuthorsRepo
    const history = yield* HistoryRepo
    const accounts = yield* AppSync
    const transaction = inTransaction(sql)

    /** The app locked for the change, with its authors. */
    const locked = (appId: string) =>
      Effect.gen(function*() {
        const app = Option.getOrThrow(yield* apps.findForUpdate(appId))
        return { app, list: yield* authors.list(appId) }
      })

    const list = (appId: string, caller: Option.Option<Caller>) =>
      Effect.gen(function*() {
        const { app } = yield* access.visible(appId, caller)
        const rows = yield* authors.list(appId)
        return rows.map((row) => ({
          uuid: row.account_uuid,
          id: row.account_id,
          display_name: row.display_name,
          joined_at: row.joined_at,
          administrator: row.account_uuid === app.administrator_uuid
        }))
      })

    const leave = (appId: string, caller: Caller) =>
      transaction(Effect.gen(function*() {
        yield* access.asAuthor(appId, caller)
        const { app, list } = yield* locked(appId)
        const remaining = list.filter((author) => author.account_uuid !== caller.uuid)
        if (remaining.length === 0) {
          return yield* new LastAuthor({ message: "The last author cannot leave an app.", hint: "Invite another author first." })
        }
        yield* keepsCarbon(list, remaining)
        yield* authors.remove(appId, caller.uuid)
        yield* history.record(appId, caller.uuid, "author.left", { uuid: caller.uuid })
        if (app.administrator_uuid === caller.uuid) {
          const next = remaining[0]!
          yield* repo.setAdministrator(appId, next.account_uuid, yield* now)
          yield* history.record(appId, caller.uuid, "admin.passed", { from: caller.uuid, to: next.account_uuid })
        }
        yield* accounts.sync(appId)
        return { status: "left" as const }
      }))

    const transfer = (appId: string, caller: Caller, to: string) =>
      transaction(Effect.gen(function*() {
        yield* access.asAdministrator(appId, caller)
        const { list } = yield* locked(appId)
        if (!list.some((author) => author.account_uuid === to)) return yield* authorNotFound(to)
        if (to !== caller.uuid) {
          yield* repo.setAdministrator(appId, to, yield* now)
          yield* history.record(appId, caller.uuid, "admin.transferred", { from: caller.uuid, to })
          yield* accounts.sync(appId)
        }
        return { status: "transferred" as const }
      }))

    const remove = (appId: string, caller: Caller, uuid: string) =>
      transaction(Effect.gen(function*() {
        yield* access.asAdministrator(appId, caller)
        if (uuid === caller.uuid) {
          return yield* new CannotRemoveSelf({
            message: "The administrator cannot remove themself.",
            hint: "Transfer administration (POST /v1/apps/{app_id}/admin) or leave."
          })
        }
        const { list } = yield* locked(appId)
        if (!list.some((author) => author.account_uuid === uuid)) return yield* authorNotFound(uuid)
        yield* keepsCarbon(list, list.filter((author) => author.account_uuid !== uuid))
        yield* authors.remove(appId, uuid)
        yield* history.record(appId, caller.uuid, "author.removed", { uuid })
        yield* accounts.sync(appId)
        return { status: "removed" as const }
      }))

    return { list, leave, transfer, remove }
  }),
  dependencies: [AppAccess.Default, AppAccessRepo.Default, AppsRepo.Default, AppAuthorsRepo.Default, HistoryRepo.Default, AppSync.Default]
}) {}
