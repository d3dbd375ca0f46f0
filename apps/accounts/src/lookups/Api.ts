import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { errorResponse, RateLimited } from "@platform/http"
import { Schema } from "effect"
import { AccountNotFound, InvalidUuid } from "../accounts/errors.ts"
import { AccountSummary } from "../accounts/AccountSummary.ts"
import { AppAccount } from "../oauth/AppAccount.ts"
import { InvalidIdInPath } from "./errors.ts"
import { LookupCallerAuth } from "./LookupCaller.ts"

/** What a lookup answers: an app's view by its membership's scopes, or the public summary an account sees. */
export const LookedUpAccount = Schema.Union(AppAccount, AccountSummary).annotations({ identifier: "LookedUpAccount" })

const CALLERS = "An app (Basic credentials) sees the account as its membership's scopes show it (AppAccount); an " +
  "account with no active or imported membership with the app, or a deleted one, is 404 account_not_found. A " +
  "signed-in account (first-party or developer bearer, or the site's cookie) sees any account's public summary " +
  "(AccountSummary); deleted accounts are 404. 600 lookups per minute per app or account, both routes together."

export class LookupsApi extends HttpApiGroup.make("lookups")
  .add(
    HttpApiEndpoint.get("byUuid", "/v1/accounts/:uuid")
      .setPath(Schema.Struct({ uuid: Schema.String }))
      .addSuccess(LookedUpAccount)
      .addError(errorResponse(InvalidUuid))
      .addError(errorResponse(AccountNotFound))
      .addError(errorResponse(RateLimited))
      .annotate(OpenApi.Description, `An account by its uuid; a malformed uuid is 400 invalid_uuid. ${CALLERS}`)
  )
  .add(
    HttpApiEndpoint.get("byId", "/v1/accounts/by-id/:id")
      .setPath(Schema.Struct({ id: Schema.String }))
      .addSuccess(LookedUpAccount)
      .addError(errorResponse(InvalidIdInPath))
      .addError(errorResponse(AccountNotFound))
      .addError(errorResponse(RateLimited))
      .annotate(
        OpenApi.Description,
        `An account by its current id (c: or si: form, any case); a malformed or reserved-word id is 400 invalid_id ` +
          `(details.reason). ${CALLERS}`
      )
  )
  .middleware(LookupCallerAuth)
  .annotate(OpenApi.Title, "Lookups")
{}
