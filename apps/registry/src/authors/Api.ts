import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { AccountsUnavailable } from "@platform/accounts-identity-api"
import { strict } from "@platform/http"
import { Schema } from "effect"
import { AppPath } from "../apps/Api.ts"
import { AccountsRefused, AppNotFound, NotAdministrator, NotAnAuthor } from "../apps/errors.ts"
import { OptionalBearer, RegistryBearer } from "../auth/Bearer.ts"
import { registryError } from "../errors.ts"
import { AuthorNotFound, CannotRemoveSelf, LastAuthor, LastCarbonAuthor } from "./errors.ts"

export const Author = Schema.Struct({
  uuid: Schema.String,
  id: Schema.NullOr(Schema.String).annotations({ description: "c: or si: id as accounts named the account when it joined" }),
  display_name: Schema.String,
  joined_at: Schema.Date,
  administrator: Schema.Boolean
}).annotations({ identifier: "Author" })

const Status = <S extends string>(status: S) =>
  Schema.Struct({ status: Schema.Literal(status) }).annotations({ identifier: `Status_${status}` })

const notFound = registryError(AppNotFound)
const notAuthor = registryError(NotAnAuthor)
const notAdministrator = registryError(NotAdministrator)
const lastCarbon = registryError(LastCarbonAuthor)
const accountsRefused = registryError(AccountsRefused)
const unavailable = registryError(AccountsUnavailable)

/** An app's authors and its administration (spec 2): list, leave, transfer administration, remove an author. */
export class AuthorsApi extends HttpApiGroup.make("authors")
  .add(
    HttpApiEndpoint.get("list", "/v1/apps/:app_id/authors")
      .setPath(AppPath)
      .addSuccess(Schema.Struct({ items: Schema.Array(Author) }).annotations({ identifier: "AuthorList" }))
      .addError(notFound)
      .middleware(OptionalBearer)
      .annotate(OpenApi.Description, "Whoever can see the app: its authors, oldest first, the administrator marked.")
  )
  .add(
    HttpApiEndpoint.post("leave", "/v1/apps/:app_id/authors/leave")
      .setPath(AppPath)
      .addSuccess(Status("left"))
      .addError(notFound)
      .addError(notAuthor)
      .addError(registryError(LastAuthor))
      .addError(lastCarbon)
      .addError(accountsRefused)
      .addError(unavailable)
      .middleware(RegistryBearer)
      .annotate(
        OpenApi.Description,
        "An author leaves. The last author cannot (409 last_author), nor the last Carbon while Silicons remain " +
          "(409 last_carbon_author). An administrator leaving passes administration to the oldest remaining author."
      )
  )
  .add(
    HttpApiEndpoint.post("transfer", "/v1/apps/:app_id/admin")
      .setPath(AppPath)
      .setPayload(strict(Schema.Struct({ uuid: Schema.String.pipe(Schema.maxLength(100)) })))
      .addSuccess(Status("transferred"))
      .addError(notFound)
      .addError(notAuthor)
      .addError(notAdministrator)
      .addError(registryError(AuthorNotFound))
      .addError(accountsRefused)
      .addError(unavailable)
      .middleware(RegistryBearer)
      .annotate(OpenApi.Description, "Administrator: administration passes to another author (404 author_not_found otherwise).")
  )
  .add(
    HttpApiEndpoint.del("remove", "/v1/apps/:app_id/authors/:uuid")
      .setPath(Schema.Struct({ ...AppPath.fields, uuid: Schema.String.pipe(Schema.maxLength(100)) }))
      .addSuccess(Status("removed"))
      .addError(notFound)
      .addError(notAuthor)
      .addError(notAdministrator)
      .addError(registryError(AuthorNotFound))
      .addError(registryError(CannotRemoveSelf))
      .addError(lastCarbon)
      .addError(accountsRefused)
      .addError(unavailable)
      .middleware(RegistryBearer)
      .annotate(OpenApi.Description, "Administrator: removes another author (not themself: 409 cannot_remove_self).")
  )
  .annotate(OpenApi.Title, "Authors")
{}
