import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { errorResponse, HtmlPage, HtmlText, OriginNotAllowed } from "@platform/http"
import { Schema } from "effect"
import { Unauthenticated } from "../auth/errors.ts"
import { IamBearer } from "../auth/IamBearer.ts"
import {
  ApplicationsRequired,
  ApplicationUnavailable,
  DuplicateApplications,
  NotAnActiveMember,
  OrganizationRequired,
  ReturnToNotRegistered,
  ScopeNotPermitted,
  ScopeVersionChanged,
  TooManyApplications
} from "./errors.ts"

const Id = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100))

export const OrganizationChoice = Schema.Struct({
  organization_id: Schema.String,
  name: Schema.String,
  role: Schema.String
}).annotations({ identifier: "OrganizationChoice" })

const ValidApplication = Schema.Struct({
  app_id: Schema.String,
  valid: Schema.Literal(true),
  name: Schema.String,
  app_scope: Schema.Array(Schema.String).annotations({ description: "The permission list: what the application may read" }),
  scope_version: Schema.Int.annotations({ description: "Send it back in the approval: a changed one needs fresh consent" }),
  consent_required: Schema.Boolean,
  consent_current: Schema.Boolean.annotations({
    description: "Whether the caller's consent covers this app_scope at this scope_version"
  })
})

const InvalidApplication = Schema.Struct({
  app_id: Schema.String,
  valid: Schema.Literal(false),
  problem: Schema.Literal("unknown").annotations({ description: "unknown: no application is registered with this id" })
})

export const ApplicationCheck = Schema.Union(ValidApplication, InvalidApplication).annotations({ identifier: "ApplicationCheck" })
export type ApplicationCheck = typeof ApplicationCheck.Type

export const BatchOrganizations = Schema.Struct({
  applications: Schema.Array(ApplicationCheck).annotations({ description: "In the order asked" }),
  organizations: Schema.Array(OrganizationChoice).annotations({
    description: "The caller's active organizations: one shared choice for every application"
  })
}).annotations({ identifier: "BatchOrganizations" })

export const ApprovalEntry = Schema.Struct({
  app_id: Id,
  org_ids: Schema.Array(Id).pipe(Schema.maxItems(100)).annotations({
    description: "At least one; each an active membership of the caller"
  }),
  approved_scopes: Schema.Array(Id).pipe(Schema.minItems(1), Schema.maxItems(50)).annotations({
    description: "A subset of the application's app_scope; recorded as the caller's consent"
  }),
  scope_version: Schema.Int.annotations({ description: "The application's current scope_version" })
}).annotations({ identifier: "ApprovalEntry" })

export const ShortLivedToken = Schema.Struct({
  app_id: Schema.String,
  slt: Schema.String.annotations({ description: "Single use, 2 minutes, exchangeable by this application only" }),
  expires_in: Schema.Int.annotations({ description: "Seconds the token stays exchangeable (120)" }),
  expires_at: Schema.String,
  request_id: Schema.String.annotations({ description: "The login it came from: the same for every token of one batch" })
}).annotations({ identifier: "ShortLivedToken" })

const Approvals = Schema.Struct({
  applications: Schema.Array(ApprovalEntry).annotations({ description: "1 to 100 distinct applications" })
})

/** A POST that mints tokens from approvals, with every refusal of a batch. */
export const approvalEndpoint = <const Name extends string>(name: Name, path: HttpApiEndpoint.PathSegment) =>
  HttpApiEndpoint.post(name, path)
    .addError(errorResponse(ApplicationsRequired))
    .addError(errorResponse(TooManyApplications))
    .addError(errorResponse(DuplicateApplications))
    .addError(errorResponse(ApplicationUnavailable))
    .addError(errorResponse(ScopeVersionChanged))
    .addError(errorResponse(ScopeNotPermitted))
    .addError(errorResponse(OrganizationRequired))
    .addError(errorResponse(NotAnActiveMember))

const DIRECT = "Direct IAM bearer only (an IAM access token of a Carbon or Silicon): an application's bearer or secret is refused."

/** Spec 2: the application login handoff for a caller holding its own IAM bearer. */
export class AppLoginApi extends HttpApiGroup.make("appLogin")
  .add(
    HttpApiEndpoint.get("organizations", "/api/v1/app-auth/batch/organizations")
      .setUrlParams(Schema.Struct({ app_ids: Schema.optional(Schema.String.pipe(Schema.maxLength(10_000))) }))
      .addSuccess(BatchOrganizations)
      .addError(errorResponse(ApplicationsRequired))
      .addError(errorResponse(TooManyApplications))
      .addError(errorResponse(DuplicateApplications))
      .annotate(
        OpenApi.Description,
        `What a login to these applications (app_ids=a,b: 1 to 100 distinct) would show: each application's validation and permission list, whether the caller's consent is current, and the caller's active organizations. Reads only. ${DIRECT}`
      )
  )
  .add(
    approvalEndpoint("shortLivedTokens", "/api/v1/app-auth/batch/short-lived-tokens")
      .setPayload(Approvals)
      .addSuccess(Schema.Struct({ tokens: Schema.Array(ShortLivedToken) }))
      .annotate(
        OpenApi.Description,
        `One short-lived token (SLT) per application, all created in one transaction or none. Records the caller's consent to each application's approved scopes at its scope_version; each token carries the intersection of approved and consented scopes and the chosen organizations. ${DIRECT}`
      )
  )
  .middleware(IamBearer)
  .annotate(OpenApi.Title, "Application login")
{}

const RETURN_TO = "return_to: where the tokens go, a registered callback URL of one of the applications " +
  "(default: the first registered callback of the first application)."

/** Spec 2's browser pages: the login page and the POST of its approval (the iam_session cookie, our Origin). */
export class AppLoginPagesApi extends HttpApiGroup.make("appLoginPages")
  .add(
    HttpApiEndpoint.get("login", "/login")
      .setUrlParams(Schema.Struct({
        app_ids: Schema.optional(Schema.String.pipe(Schema.maxLength(10_000))),
        bundle_id: Schema.optional(Schema.String.pipe(Schema.maxLength(100))),
        return_to: Schema.optional(Schema.String.pipe(Schema.maxLength(2048)))
      }))
      .addSuccess(HtmlText)
      .addError(HtmlText, { status: 400 })
      .addError(HtmlText, { status: 404 })
      .annotate(HtmlPage, true)
      .annotate(
        OpenApi.Description,
        `The login page for applications: app_ids=a,b (1 to 100 distinct) or bundle_id=id. Without an iam_session it signs the person in with a code first; then it shows each application's validation and permission list, asks for consent when an application requires it, and one shared organization picker. It never creates a token: its Continue posts to /login/tokens. ${RETURN_TO}`
      )
  )
  .add(
    approvalEndpoint("approve", "/login/tokens")
      .setPayload(Schema.Struct({
        return_to: Schema.String.pipe(Schema.maxLength(2048)),
        applications: Schema.Array(ApprovalEntry)
      }))
      .addSuccess(Schema.Struct({
        redirect_to: Schema.String.annotations({
          description: "return_to with the fragment slts=<URL-encoded JSON array of {app_id, slt, expires_in, expires_at, request_id}>"
        })
      }))
      .addError(errorResponse(ReturnToNotRegistered))
      .addError(errorResponse(Unauthenticated))
      .addError(errorResponse(OriginNotAllowed))
      .annotate(
        OpenApi.Description,
        "The login page's approval, as POST /api/v1/app-auth/batch/short-lived-tokens but with the browser session (iam_session cookie, 401 without a live one) and Origin equal to IAM's own (403 origin_not_allowed). Answers where to send the browser: return_to with the tokens in its fragment."
      )
  )
  .annotate(OpenApi.Title, "Application login pages")
{}
