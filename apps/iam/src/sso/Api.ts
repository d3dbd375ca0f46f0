import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { AccountsUnavailable } from "@platform/accounts-identity-api"
import { errorResponse, strict, ValidationFailed } from "@platform/http"
import { Schema } from "effect"
import { IamBearer } from "../auth/IamBearer.ts"
import { StepUpRefusals } from "../auth/stepUpErrors.ts"
import { AdminRequired, OrganizationNotFound } from "../organizations/errors.ts"
import {
  SsoConnectionInactive,
  SsoConnectionLimit,
  SsoConnectionNotFound,
  SsoIssuerUnusable,
  SsoNotAMember,
  SsoNotEntitled,
  SsoProviderError,
  SsoSetupLinkExpired,
  SsoSetupLinkNotFound,
  SsoSetupLinkUsed,
  SsoSignatureInvalid,
  SsoStateInvalid,
  SsoTokenInvalid
} from "./errors.ts"
import { SsoConnection, SsoState } from "./Sso.ts"

const OrganizationPath = Schema.Struct({ organization_id: Schema.String.pipe(Schema.maxLength(100)) })
const ConnectionPath = Schema.Struct({
  organization_id: Schema.String.pipe(Schema.maxLength(100)),
  connection_id: Schema.String.pipe(Schema.maxLength(100))
})
const PublicConnectionPath = Schema.Struct({ connection_id: Schema.String.pipe(Schema.maxLength(100)) })

export const SsoSetupLink = Schema.Struct({
  setup_link_id: Schema.String,
  organization_id: Schema.String,
  created_by: Schema.String,
  expires_at: Schema.String,
  token: Schema.String.annotations({ description: "ssl_…: shown once; whoever holds it submits the provider within 5 minutes" }),
  submit_url: Schema.String.annotations({ description: "Where the token and the provider's settings are posted" })
}).annotations({ identifier: "SsoSetupLink" })

const NonEmpty = (max: number) => Schema.String.pipe(Schema.minLength(1), Schema.maxLength(max))

export const ProviderSubmission = strict(Schema.Struct({
  token: NonEmpty(200).annotations({ description: "The setup link's token" }),
  issuer: NonEmpty(2048).annotations({ description: "The OpenID Connect issuer (its discovery document is read)" }),
  client_id: NonEmpty(255),
  client_secret: NonEmpty(1024)
})).annotations({ identifier: "SsoProviderSubmission" })

export const SubmittedConnection = Schema.Struct({
  connection: SsoConnection,
  redirect_uri: Schema.String.annotations({ description: "Register this callback at the identity provider" }),
  webhook_signing_secret: Schema.String.annotations({ description: "ssw_…: shown once; the provider signs its events with it" })
}).annotations({ identifier: "SsoSubmittedConnection" })

const STEP_UP = "Needs X-Step-Up-Token for organization.sso_change"
const adminErrors = [errorResponse(OrganizationNotFound), errorResponse(AdminRequired)] as const

/** An organization's SSO, for its owner and admins (IAM bearer; changes with step-up). */
export class OrganizationSsoApi extends HttpApiGroup.make("organizationSso")
  .add(
    HttpApiEndpoint.get("read", "/api/v1/organizations/:organization_id/sso")
      .setPath(OrganizationPath)
      .addSuccess(SsoState)
      .addError(adminErrors[0]).addError(adminErrors[1])
      .annotate(OpenApi.Description, "The organization's SSO entitlement and connections (owner and admins).")
  )
  .add(
    HttpApiEndpoint.post("createSetupLink", "/api/v1/organizations/:organization_id/sso/setup-links")
      .setPath(OrganizationPath)
      .addSuccess(SsoSetupLink, { status: 201 })
      .addError(adminErrors[0]).addError(adminErrors[1])
      .addError(errorResponse(SsoNotEntitled))
      .addError(StepUpRefusals)
      .annotate(OpenApi.Description, `A 5-minute, one-use setup link for the identity provider's settings; its token is shown once. ${STEP_UP} on the organization id.`)
  )
  .add(
    HttpApiEndpoint.post("activate", "/api/v1/organizations/:organization_id/sso/connections/:connection_id/activation")
      .setPath(ConnectionPath)
      .addSuccess(SsoConnection)
      .addError(adminErrors[0]).addError(adminErrors[1])
      .addError(errorResponse(SsoConnectionNotFound))
      .addError(errorResponse(SsoNotEntitled))
      .addError(StepUpRefusals)
      .annotate(OpenApi.Description, `Members may sign in through it from now on. ${STEP_UP} on the connection id (none when it is already active).`)
  )
  .add(
    HttpApiEndpoint.post("deactivate", "/api/v1/organizations/:organization_id/sso/connections/:connection_id/deactivation")
      .setPath(ConnectionPath)
      .addSuccess(SsoConnection)
      .addError(adminErrors[0]).addError(adminErrors[1])
      .addError(errorResponse(SsoConnectionNotFound))
      .addError(errorResponse(SsoNotEntitled))
      .addError(StepUpRefusals)
      .annotate(OpenApi.Description, `No sign-in through it from now on; sessions it opened stay. ${STEP_UP} on the connection id.`)
  )
  .add(
    HttpApiEndpoint.post("disable", "/api/v1/organizations/:organization_id/sso/disable")
      .setPath(OrganizationPath)
      .addSuccess(SsoState)
      .addError(adminErrors[0]).addError(adminErrors[1])
      .addError(StepUpRefusals)
      .annotate(OpenApi.Description, `Disables the whole configuration: every connection deactivated, open setup links ended. ${STEP_UP} on the organization id.`)
  )
  .middleware(IamBearer)
  .annotate(OpenApi.Title, "Organization SSO")
{}

/** The public SSO routes: the setup link's submission, members' browser sign-in, and the provider's webhook. */
export class SsoApi extends HttpApiGroup.make("sso")
  .add(
    HttpApiEndpoint.post("submitProvider", "/api/v1/sso/setup")
      .setPayload(ProviderSubmission)
      .addSuccess(SubmittedConnection, { status: 201 })
      .addError(errorResponse(SsoSetupLinkNotFound))
      .addError(errorResponse(SsoSetupLinkUsed))
      .addError(errorResponse(SsoSetupLinkExpired))
      .addError(errorResponse(SsoNotEntitled))
      .addError(errorResponse(SsoConnectionLimit))
      .addError(errorResponse(SsoIssuerUnusable))
      .addError(errorResponse(ValidationFailed))
      .addError(errorResponse(OrganizationNotFound))
      .annotate(
        OpenApi.Description,
        "Whoever holds a setup link names the OpenID Connect provider. IAM reads the issuer's discovery document through its " +
          "outbound guard, spends the link and makes a pending connection; the provider webhook's signing secret is shown once."
      )
  )
  .add(
    HttpApiEndpoint.get("login", "/api/v1/sso/connections/:connection_id/login")
      .setPath(PublicConnectionPath)
      .setUrlParams(Schema.Struct({ return_to: Schema.optional(Schema.String.pipe(Schema.maxLength(2000))) }))
      .addSuccess(Schema.Void, { status: 302 })
      .addError(errorResponse(SsoConnectionNotFound))
      .addError(errorResponse(SsoConnectionInactive))
      .addError(errorResponse(SsoIssuerUnusable))
      .addError(errorResponse(ValidationFailed))
      .annotate(
        OpenApi.Description,
        "A browser navigation: redirects (302) to the provider's authorization endpoint with state, nonce and PKCE; " +
          "return_to (a path on IAM, default /) is where the browser lands after signing in."
      )
  )
  .add(
    HttpApiEndpoint.get("callback", "/api/v1/sso/callback")
      .addSuccess(Schema.Void, { status: 303 })
      .addError(errorResponse(SsoStateInvalid))
      .addError(errorResponse(SsoConnectionNotFound))
      .addError(errorResponse(SsoConnectionInactive))
      .addError(errorResponse(SsoIssuerUnusable))
      .addError(errorResponse(SsoProviderError))
      .addError(errorResponse(SsoTokenInvalid))
      .addError(errorResponse(SsoNotAMember))
      .addError(errorResponse(AccountsUnavailable))
      .annotate(
        OpenApi.Description,
        "The provider's redirect back. The ID token is checked (signature, issuer, audience, nonce, expiry); its verified email " +
          "(or userinfo's, for the same subject, when the ID token has none) must be an active Carbon member of the organization. Sets the iam_session cookie and redirects (303) to return_to."
      )
  )
  .add(
    HttpApiEndpoint.post("providerEvents", "/api/v1/sso/connections/:connection_id/provider-events")
      .setPath(PublicConnectionPath)
      .addSuccess(Schema.Struct({ ended_sessions: Schema.Number }).annotations({ identifier: "SsoProviderEventAnswer" }))
      .addError(errorResponse(SsoSignatureInvalid))
      .addError(errorResponse(ValidationFailed))
      .annotate(
        OpenApi.Description,
        "The identity provider's events, JSON {type: \"user.deprovisioned\", subject?, email?}, signed: X-Sso-Timestamp (unix " +
          "seconds, within 5 minutes) and X-Sso-Signature v1=<hex HMAC-SHA256 of <timestamp>.<raw body> under the connection's " +
          "webhook secret>. A bad signature is 401 invalid_signature. A deprovisioning ends the IAM sessions this connection opened for that user."
      )
  )
  .annotate(OpenApi.Title, "SSO")
{}
