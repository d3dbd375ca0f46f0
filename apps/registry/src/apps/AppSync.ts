import { AccountsApps, type RegistryApp, type SyncRefusal } from "@platform/accounts-identity-api"
import { Effect, Option } from "effect"
import { AppAccessRepo } from "./AppAccessRepo.ts"
import { type AuthorRow, AppAuthorsRepo } from "./AppAuthorsRepo.ts"
import type { AppRow } from "./AppRow.ts"
import { AppsRepo } from "./AppsRepo.ts"
import { AccountsRefused, AppIdTaken } from "./errors.ts"

const isCarbon = (author: AuthorRow) => author.account_id?.startsWith("c:") === true

/**
 * The app as accounts is told of it (docs/decisions.md, "Accounts sync"): only Carbon authors are
 * sent, as accounts requires; the owner is the administrator when a Carbon, else the oldest Carbon author,
 * the other Carbon authors co-authors (oldest first, at most 100). Draft and published are both `active`:
 * authors sign in with their app before publishing. None when no author is a Carbon (not synced yet).
 */
export const registryAppOf = (
  app: AppRow,
  authors: ReadonlyArray<AuthorRow>,
  secretSha256: Option.Option<string>
): Option.Option<RegistryApp> => {
  const carbons = authors.filter(isCarbon)
  const owner = carbons.find((author) => author.account_uuid === app.administrator_uuid) ?? carbons[0]
  if (owner === undefined) return Option.none()
  const links = (app.links ?? {}) as { readonly website?: string | null }
  return Option.some({
    name: app.name,
    description: app.description,
    homepage_url: links.website ?? null,
    logo_url: app.logo,
    owner_uuid: owner.account_uuid,
    coauthor_uuids: carbons.filter((author) => author !== owner).slice(0, 100).map((author) => author.account_uuid),
    status: "active",
    ...Option.match(secretSha256, { onNone: () => ({}), onSome: (digest) => ({ app_secret_sha256: digest }) })
  })
}

const refused = (error: SyncRefusal) =>
  new AccountsRefused({
    message: `Accounts refused the app as the registry has it: ${error.message}`,
    hint: "Nothing was changed. Correct the field accounts names, or ask an operator when it names an author.",
    details: { code: error.code, fields: error._tag === "ValidationFailed" ? error.details?.fields ?? null : null }
  })

/**
 * Tells accounts how an app stands after a change, inside the change's transaction: when accounts refuses or
 * cannot answer, the change fails and rolls back, so the registry and accounts never disagree.
 */
export class AppSync extends Effect.Service<AppSync>()("registry/AppSync", {
  effect: Effect.gen(function*() {
    const accounts = yield* AccountsApps
    const apps = yield* AppAccessRepo
    const authors = yield* AppAuthorsRepo
    const repo = yield* AppsRepo

    const push = (appId: string) =>
      Effect.gen(function*() {
        const app = yield* Effect.flatMap(apps.find(appId), Option.match({
          onNone: () => Effect.dieMessage(`app ${appId} vanished during its own change`),
          onSome: Effect.succeed
        }))
        const body = registryAppOf(app, yield* authors.list(appId), yield* repo.secretOf(appId))
        if (Option.isSome(body)) yield* accounts.sync(appId, body.value)
      })

    return {
      /** After a change of an existing app. */
      sync: (appId: string) =>
        push(appId).pipe(Effect.catchTags({
          ValidationFailed: (error) => Effect.fail(refused(error)),
          AppSourceConflict: (error) => Effect.fail(refused(error))
        })),
      /** After the app was created: an id accounts holds for an app of another source is taken. */
      syncNew: (appId: string) =>
        push(appId).pipe(Effect.catchTags({
          ValidationFailed: (error) => Effect.fail(refused(error)),
          AppSourceConflict: () =>
            Effect.fail(new AppIdTaken({ message: `The app id ${appId} is taken by an app outside the registry.`, hint: "Choose another id." }))
        }))
    }
  }),
  dependencies: [AppAccessRepo.Default, AppAuthorsRepo.Default, AppsRepo.Default]
}) {}
