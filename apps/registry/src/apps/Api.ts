import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { AccountsUnavailable } from "@platform/accounts-identity-api"
import { ValidationFailed } from "@platform/http"
import { Schema } from "effect"
import { OptionalBearer, RegistryBearer } from "../auth/Bearer.ts"
import { registryError } from "../errors.ts"
import { App } from "./App.ts"
import { AccessInput, AppPatch, CreateApp } from "./AppFields.ts"
import {
  AccountsRefused,
  AppIdTaken,
  AppNotFound,
  AppNotReady,
  NotAdministrator,
  NotAnAuthor,
  ReadinessProblem
} from "./errors.ts"

export const AppPath = Schema.Struct({ app_id: Schema.String.pipe(Schema.maxLength(64)) })

export const Availability = Schema.Struct({
  available: Schema.Boolean,
  reason: Schema.NullOr(Schema.Literal("invalid", "taken")).annotations({ description: "Why not available; null when it is" }),
  look_alikes: Schema.Array(Schema.String).annotations({
    description: "Published public apps whose id differs only by case, - or _, or confusable characters (0/o, 1/l/i, 5/s, rn/m, vv/w)"
  })
}).annotations({ identifier: "Availability" })

export const AppCreated = Schema.Struct({
  app: App,
  app_secret: Schema.String.annotations({ description: "Shown once: only its SHA-256 is kept (and given to accounts)" })
}).annotations({ identifier: "AppCreated" })

export const REQUIRED_COMMANDS = ["--help", "accounts --json", "login status --json"] as const

export const Readiness = Schema.Struct({
  ready: Schema.Boolean,
  errors: Schema.Array(ReadinessProblem),
  required_commands: Schema.Array(Schema.String).annotations({ description: "What every package must answer in the sandbox" })
}).annotations({ identifier: "Readiness" })

export const AppSecret = Schema.Struct({
  app_secret: Schema.String.annotations({ description: "Shown once; at accounts the previous one ends within its 60-second credential cache" })
}).annotations({ identifier: "AppSecret" })

export const HistoryItem = Schema.Struct({
  id: Schema.String,
  at: Schema.Date,
  actor_uuid: Schema.NullOr(Schema.String),
  kind: Schema.String,
  data: Schema.Unknown
}).annotations({ identifier: "HistoryItem" })

export const HistoryPage = Schema.Struct({ items: Schema.Array(HistoryItem), total: Schema.Number })
  .annotations({ identifier: "HistoryPage" })

/** `{}`: a field in it is refused by its name (Schema.Struct({}) would take any object). */
export const EmptyObject = Schema.Record({
  key: Schema.String,
  value: Schema.Never.annotations({ message: () => "is not a field of this request (send {})" })
}).annotations({ identifier: "EmptyObject", description: "An empty object" })

const Int = (min: number, max: number, description: string) =>
  Schema.optional(Schema.NumberFromString.pipe(Schema.int(), Schema.between(min, max)).annotations({ description }))

const notFound = registryError(AppNotFound)
const notAuthor = registryError(NotAnAuthor)
const unavailable = registryError(AccountsUnavailable)
const accountsRefused = registryError(AccountsRefused)
const invalid = registryError(ValidationFailed)

/** Apps (spec 2, Registry endpoints): create, show, edit, access, readiness, publish, secret, history. */
export class AppsApi extends HttpApiGroup.make("apps")
  .add(
    HttpApiEndpoint.get("availability", "/v1/apps/availability/:app_id")
      .setPath(AppPath)
      .addSuccess(Availability)
      .annotate(
        OpenApi.Description,
        "Whether an app id can be taken now: an invalid id is false (reason invalid), so is one held by any app (reason taken). " +
          "look_alikes names published public apps an id could be mistaken for; they do not block it. Public."
      )
  )
  .add(
    HttpApiEndpoint.post("create", "/v1/apps")
      .setPayload(CreateApp)
      .addSuccess(AppCreated, { status: 201 })
      .addError(invalid)
      .addError(registryError(AppIdTaken))
      .addError(accountsRefused)
      .addError(unavailable)
      .middleware(RegistryBearer)
      .annotate(
        OpenApi.Description,
        "A new draft app with the caller as its author and administrator, created at accounts too (source registry_app) in " +
          "the same step: when accounts refuses or cannot answer, nothing is created (503 accounts_unavailable). The app " +
          "secret is shown once. An app whose creator is a Silicon reaches accounts when a Carbon becomes an author."
      )
  )
  .add(
    HttpApiEndpoint.get("get", "/v1/apps/:app_id")
      .setPath(AppPath)
      .addSuccess(App)
      .addError(notFound)
      .middleware(OptionalBearer)
      .annotate(OpenApi.Description, "The app: a draft for its authors only, a private app for its authors and those it admits (404 otherwise).")
  )
  .add(
    HttpApiEndpoint.patch("update", "/v1/apps/:app_id")
      .setPath(AppPath)
      .setPayload(AppPatch)
      .addSuccess(App)
      .addError(notFound)
      .addError(notAuthor)
      .addError(invalid)
      .addError(accountsRefused)
      .addError(unavailable)
      .middleware(RegistryBearer)
      .annotate(
        OpenApi.Description,
        "Authors: any of name, description, tags, logo, banner, carousel, links, setup_step (limits in the schema). A published " +
          "app keeps a description of 200 to 600 characters. Name, description, logo and website are given to accounts."
      )
  )
  .add(
    HttpApiEndpoint.put("setAccess", "/v1/apps/:app_id/access")
      .setPath(AppPath)
      .setPayload(AccessInput)
      .addSuccess(App)
      .addError(notFound)
      .addError(notAuthor)
      .addError(registryError(NotAdministrator))
      .addError(invalid)
      .addError(unavailable)
      .middleware(RegistryBearer)
      .annotate(
        OpenApi.Description,
        "Administrator: who a private app admits. account_ids take c: or si: ids or uuids, resolved through accounts and kept " +
          "as uuids; ids no account holds are 422 validation_failed naming each (account_ids.N)."
      )
  )
  .add(
    HttpApiEndpoint.get("readiness", "/v1/apps/:app_id/readiness")
      .setPath(AppPath)
      .addSuccess(Readiness)
      .addError(notFound)
      .addError(notAuthor)
      .middleware(RegistryBearer)
      .annotate(OpenApi.Description, "Authors: what publishing still needs, by field.")
  )
  .add(
    HttpApiEndpoint.post("publish", "/v1/apps/:app_id/publish")
      .setPath(AppPath)
      .setPayload(EmptyObject)
      .addSuccess(App)
      .addError(notFound)
      .addError(notAuthor)
      .addError(registryError(AppNotReady))
      .addError(accountsRefused)
      .addError(unavailable)
      .middleware(RegistryBearer)
      .annotate(
        OpenApi.Description,
        "Authors, body {}: publishes a draft with a description of 200 to 600 characters and at least one accepted package in a " +
          "release that is not withdrawn (422 app_not_ready with the readiness errors otherwise). No manual review. A published " +
          "app answers as it is."
      )
  )
  .add(
    HttpApiEndpoint.post("rotateSecret", "/v1/apps/:app_id/secret/rotate")
      .setPath(AppPath)
      .addSuccess(AppSecret)
      .addError(notFound)
      .addError(notAuthor)
      .addError(accountsRefused)
      .addError(unavailable)
      .middleware(RegistryBearer)
      .annotate(OpenApi.Description, "Any author: a new app secret, shown once; accounts is given its SHA-256 in the same step.")
  )
  .add(
    HttpApiEndpoint.get("history", "/v1/apps/:app_id/history")
      .setPath(AppPath)
      .setUrlParams(Schema.Struct({ limit: Int(1, 100, "1 to 100, default 100"), offset: Int(0, 1_000_000, "default 0") }))
      .addSuccess(HistoryPage)
      .addError(notFound)
      .addError(notAuthor)
      .middleware(RegistryBearer)
      .annotate(OpenApi.Description, "Authors: what happened to the app, newest first.")
  )
  .annotate(OpenApi.Title, "Apps")
{}
