import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { errorResponse, InvalidCursor, Page, PageQueryFields, RateLimited } from "@platform/http"
import { Schema } from "effect"
import { AccountAuth } from "../auth/AccountAuth.ts"
import { SessionRequired } from "../auth/errors.ts"
import { MethodNotEnabledForMove, ProviderUnavailable } from "../providers/errors.ts"
import { ProviderName } from "../providers/ProviderAnswer.ts"
import { IdentityLinkNotFound, IdentityNotFound } from "./errors.ts"
import { LinkFailureCode } from "./IdentityLink.ts"

export const LinkedIdentity = Schema.Struct({
  id: Schema.String.annotations({ description: "idn_ value; DELETE /v1/me/identities/{id} unlinks it" }),
  provider: ProviderName,
  email: Schema.NullOr(Schema.String).annotations({ description: "The verified email the provider gave when it was linked" }),
  linked_at: Schema.String,
  last_used_at: Schema.String
}).annotations({ identifier: "LinkedIdentity" })

export const IdentityLinkStatus = Schema.Struct({
  link_id: Schema.String,
  provider: ProviderName,
  status: Schema.Literal("pending", "linked", "failed", "expired"),
  error: Schema.NullOr(Schema.Struct({ code: LinkFailureCode, message: Schema.String })),
  identity: Schema.NullOr(LinkedIdentity),
  created_at: Schema.String,
  expires_at: Schema.String
}).annotations({ identifier: "IdentityLinkStatus" })

export const IdentityLinkStarted = Schema.Struct({
  link_id: Schema.String,
  provider: ProviderName,
  authorization_url: Schema.String.annotations({ description: "Where to send this browser: the provider's sign-in page" }),
  expires_at: Schema.String
}).annotations({ identifier: "IdentityLinkStarted" })

/**
 * Identity-link bodies refuse unknown fields (spec 1, General request rules); the link takes none, so
 * every field is unknown (an empty Struct would take any object).
 */
export const IdentityLinkInput = Schema.Record({
  key: Schema.String,
  value: Schema.Never.annotations({ message: () => "is not a field of this body (it takes none)" })
}).annotations({ identifier: "IdentityLinkInput", description: "An empty object (or no body)" })

export class IdentitiesApi extends HttpApiGroup.make("identities")
  .add(
    HttpApiEndpoint.get("list", "/v1/me/identities")
      .setUrlParams(Schema.Struct(PageQueryFields))
      .addSuccess(Page(LinkedIdentity, "LinkedIdentityPage"))
      .addError(errorResponse(InvalidCursor))
      .annotate(OpenApi.Description, "The caller's identities at external providers (idp_a, idp_b), oldest first.")
  )
  .add(
    HttpApiEndpoint.post("link", "/v1/me/identities/:provider")
      .setPath(Schema.Struct({ provider: ProviderName }))
      .setPayload(IdentityLinkInput)
      .addSuccess(IdentityLinkStarted, { status: 201 })
      .addError(errorResponse(SessionRequired))
      .addError(errorResponse(MethodNotEnabledForMove))
      .addError(errorResponse(ProviderUnavailable))
      .addError(errorResponse(RateLimited))
      .annotate(
        OpenApi.Description,
        "Starts linking an identity at the provider, from the account site's browser session only (a bearer token is 401 session_required: the round trip must happen in that browser). Send the browser to authorization_url; the provider's callback links the identity, with its verified email added to the account, in that same session, and shows a page. The outcome, with spec 1's provider error values (provider_cancelled, provider_error, provider_token_invalid, provider_unavailable, provider_config_changed, provider_email_invalid, email_not_verified, hosted_domain_mismatch, session_changed, identity_in_use, email_in_use, email_limit_reached), is read at GET /v1/me/identities/links/{link_id}. A link lives 30 minutes. 30 per hour per account. 403 method_not_enabled when the service has no client for the provider."
      )
  )
  .add(
    HttpApiEndpoint.get("linkStatus", "/v1/me/identities/links/:link_id")
      .setPath(Schema.Struct({ link_id: Schema.String.pipe(Schema.maxLength(64)) }))
      .addSuccess(IdentityLinkStatus)
      .addError(errorResponse(IdentityLinkNotFound))
      .annotate(OpenApi.Description, "How a link started by the caller ended: pending, linked (with the identity), failed (with the error value), or expired.")
  )
  .add(
    HttpApiEndpoint.del("unlink", "/v1/me/identities/:identity_id")
      .setPath(Schema.Struct({ identity_id: Schema.String.pipe(Schema.maxLength(64)) }))
      .addSuccess(Schema.Void)
      .addError(errorResponse(IdentityNotFound))
      .annotate(
        OpenApi.Description,
        "Unlinks one of the caller's identities: it no longer signs the account in (signing in with it again starts a sign-up, or meets email_in_use while the account holds its email). The account's emails stay. 204; 404 identity_not_found."
      )
  )
  .middleware(AccountAuth)
  .annotate(OpenApi.Title, "Linked identities")
{}
