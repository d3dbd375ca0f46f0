import { HttpApi, HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { errorResponse, MaxBodyBytes, strict, ValidationFailed } from "@platform/http"
import { Schema } from "effect"
import { AppSourceConflict } from "./errors.ts"
import { InternalAuth } from "./InternalAuth.ts"

/**
 * Accounts' internal route for the registry: PUT /v1/internal/apps/{app_id} creates or updates an app the
 * registry owns (source `registry_app`). The request is the contract both sides share; the answer's `app`
 * is accounts' App record, whose full schema is accounts' own (its sign-in setup), so the group is made
 * from it: accounts builds the group with its record, the registry's client with `SyncedApp`, the fields
 * it reads.
 */

export const AppStatus = Schema.Literal("active", "disabled")
export type AppStatus = typeof AppStatus.Type

/** How the app's id tokens are signed (OpenID Connect Registration §2): EdDSA by default, RS256 for relying parties without EdDSA. */
export const IdTokenSigningAlg = Schema.Literal("EdDSA", "RS256").annotations({
  description: "id_token_signed_response_alg: EdDSA (default) or RS256"
})
export type IdTokenSigningAlg = typeof IdTokenSigningAlg.Type

const AppIdPath = Schema.Struct({ app_id: Schema.String.pipe(Schema.maxLength(64)) })
const Text = (max: number, description: string) => Schema.String.pipe(Schema.maxLength(max)).annotations({ description })

export const RegistryApp = strict(Schema.Struct({
  name: Text(200, "1 to 200 characters"),
  description: Schema.optional(Schema.NullOr(Text(5000, "at most 5000 characters"))),
  homepage_url: Schema.optional(Schema.NullOr(Text(2048, "https URL"))),
  logo_url: Schema.optional(Schema.NullOr(Text(200_000, "https URL or an inline data URL of at most 128 KB"))),
  logo_dark_url: Schema.optional(Schema.NullOr(Text(200_000, "https URL or an inline data URL of at most 128 KB"))),
  owner_uuid: Schema.String.annotations({ description: "The owning account's uuid" }),
  coauthor_uuids: Schema.optional(Schema.Array(Schema.String).pipe(Schema.maxItems(100))),
  status: AppStatus,
  app_secret_sha256: Schema.optional(
    Schema.String.pipe(Schema.pattern(/^[0-9a-f]{64}$/)).annotations({
      description: "SHA-256 (lowercase hex) of the app secret the registry issued; absent keeps the current one"
    })
  ),
  id_token_signed_response_alg: Schema.optional(IdTokenSigningAlg.annotations({
    description: "How the app's id tokens are signed: EdDSA or RS256 (for relying parties without EdDSA); absent keeps the current one, EdDSA for a new app"
  }))
})).annotations({ identifier: "RegistryApp" })
export type RegistryApp = typeof RegistryApp.Type

/** The group of the sync route, its answer carrying `app` as `App` describes it. */
export const internalAppsGroup = <A, I>(App: Schema.Schema<A, I>) =>
  HttpApiGroup.make("internalApps")
    .add(
      HttpApiEndpoint.put("sync", "/v1/internal/apps/:app_id")
        .setPath(AppIdPath)
        .setPayload(RegistryApp)
        .addSuccess(Schema.Struct({ app: App, created: Schema.Boolean }).annotations({ identifier: "RegistrySync" }))
        .addError(errorResponse(AppSourceConflict))
        .annotate(MaxBodyBytes, 5 * 1024 * 1024)
        .annotate(
          OpenApi.Description,
          "Registry only (bearer internal token): creates or updates a registry app — details, owner and co-authors, status, secret digest, id token signing alg. Its sign-in setup is managed here by its authors and is left as it is."
        )
    )
    .middleware(InternalAuth)
    .annotate(OpenApi.Title, "Internal")

/** What the registry reads of the App record accounts answers with (the rest is accounts' own). */
export const SyncedApp = Schema.Struct({
  app_id: Schema.String,
  name: Schema.String,
  status: AppStatus,
  source: Schema.String
})
export type SyncedApp = typeof SyncedApp.Type

export class InternalAppsApi extends internalAppsGroup(SyncedApp) {}

/**
 * The contract the registry calls: the sync route, with the refusal accounts' conventions add to every
 * route taking a body (422 validation_failed, by field: a bad name or URL, an owner or co-author that is
 * not an active Carbon).
 */
export class AccountsAppsApi extends HttpApi.make("accountsApps").add(InternalAppsApi).addError(errorResponse(ValidationFailed)) {}
