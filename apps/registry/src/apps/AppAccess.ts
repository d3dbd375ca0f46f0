import { Effect, Option } from "effect"
import type { Caller } from "../auth/Caller.ts"
import { AppAccessRepo } from "./AppAccessRepo.ts"
import type { AppRow } from "./AppRow.ts"
import { AppNotFound, NotAdministrator, NotAnAuthor } from "./errors.ts"

/** The domain of an email address, as private apps name their domains. */
export const domainOf = (email: string) => email.slice(email.lastIndexOf("@") + 1).toLowerCase()

/**
 * Whether a caller who is not an author may see a published app: anyone when it is public; when it is
 * private, the accounts it names and the Carbons with a verified email at one of its domains.
 */
export const admits = (app: AppRow, caller: Option.Option<Caller>): boolean => {
  if (app.status !== "published") return false
  if (app.visibility === "public") return true
  if (Option.isNone(caller)) return false
  const { uuid, verifiedEmails } = caller.value
  return app.account_ids.includes(uuid) || verifiedEmails.some((email) => app.domains.includes(domainOf(email)))
}

const notFound = (appId: string) =>
  new AppNotFound({ message: `No app ${appId} that you can see.`, hint: "Check the app id; drafts and private apps are visible only to those they admit." })

/**
 * Who may see and manage an app (spec 2): a draft only its authors, a private app its authors and those it
 * admits; an author manages it; the administrator changes access and authors. An app the caller may not
 * see answers 404 whether or not it exists.
 */
export class AppAccess extends Effect.Service<AppAccess>()("registry/AppAccess", {
  effect: Effect.gen(function*() {
    const repo = yield* AppAccessRepo

    const authorOf = (app: AppRow, caller: Option.Option<Caller>) =>
      Option.isNone(caller) ? Effect.succeed(false) : repo.isAuthor(app.app_id, caller.value.uuid)

    /** The app, when the caller (anyone, or nobody) may see it; `author` says whether the caller is one of its authors. */
    const visible = (appId: string, caller: Option.Option<Caller>) =>
      Effect.gen(function*() {
        const app = yield* repo.find(appId)
        if (Option.isNone(app)) return yield* Effect.fail(notFound(appId))
        const author = yield* authorOf(app.value, caller)
        if (!author && !admits(app.value, caller)) return yield* Effect.fail(notFound(appId))
        return { app: app.value, author }
      })

    /** The app, when the caller is one of its authors. */
    const asAuthor = (appId: string, caller: Caller) =>
      Effect.flatMap(visible(appId, Option.some(caller)), ({ app, author }) =>
        author
          ? Effect.succeed(app)
          : Effect.fail(new NotAnAuthor({ message: `Only the authors of ${appId} may do this.` })))

    /** The app, when the caller is its administrator. */
    const asAdministrator = (appId: string, caller: Caller) =>
      Effect.flatMap(asAuthor(appId, caller), (app) =>
        app.administrator_uuid === caller.uuid
          ? Effect.succeed(app)
          : Effect.fail(new NotAdministrator({ message: `Only the administrator of ${appId} may do this.` })))

    return { visible, asAuthor, asAdministrator }
  }),
  dependencies: [AppAccessRepo.Default]
}) {}
