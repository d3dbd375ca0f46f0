import { HttpApi, HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { oauthBody, OAuthErrorResponses } from "@platform/oauth"
import { Schema } from "effect"
import {
  ApplicationIntrospectionRequest,
  ApplicationRevocationRequest,
  ApplicationTokenRequests,
  OnBehalfOfProofRequest,
  OnBehalfOfVerificationRequest
} from "./requests.ts"
import { ApplicationIntrospection, ApplicationTokenResponse, OnBehalfOfProof, OnBehalfOfVerification } from "./responses.ts"

const CLIENT_AUTHENTICATION =
  "The application authenticates with HTTP Basic app_id:client_secret (or client_id and client_secret in the body, never both); " +
  "an unknown application or a wrong secret is 401 invalid_client. Errors are RFC 6749 bodies {error, error_description}."

/** An exact transport retry of an exchange or a refresh carries the original key and gets the original answer. */
const IdempotencyHeader = Schema.Struct({
  "idempotency-key": Schema.optional(
    Schema.String.annotations({ description: "1 to 200 visible ASCII characters; a retry with the same key and body replays the answer for 10 minutes" })
  )
})

/** A POST of the application API: an OAuth body of these shapes, answered with RFC 6749 errors (400 and 401). */
const applicationEndpoint = <const Name extends string>(
  name: Name,
  path: `/api/v1/oauth/${string}`,
  requests: ReadonlyArray<Schema.Schema.AnyNoContext>
) => HttpApiEndpoint.post(name, path).setPayload(oauthBody(requests)).addError(OAuthErrorResponses[0]).addError(OAuthErrorResponses[1])

/** The application sessions an application opens, refreshes, checks and ends (spec 2, Authentication: Application). */
export class ApplicationSessionsApi extends HttpApiGroup.make("applicationSessions")
  .add(
    applicationEndpoint("token", "/api/v1/oauth/token", ApplicationTokenRequests)
      .setHeaders(IdempotencyHeader)
      .addSuccess(ApplicationTokenResponse)
      .annotate(
        OpenApi.Description,
        "Token endpoint. grant_type urn:iam:params:oauth:grant-type:short-lived-token with `slt` exchanges a short-lived login token " +
          "(2 minutes, single use, minted for this application only) for an application session: an access token of 30 minutes and a " +
          "refresh token of a family that lasts 900 days and ends with its parent IAM session. grant_type refresh_token rotates the " +
          "refresh token; presenting a used one ends the session, and that and every other refusal of a token is invalid_grant " +
          "(terminal: sign the subject in again). A retry with the original Idempotency-Key replays the answer for 10 minutes. " +
          CLIENT_AUTHENTICATION
      )
  )
  .add(
    applicationEndpoint("introspect", "/api/v1/oauth/introspect", [ApplicationIntrospectionRequest])
      .addSuccess(ApplicationIntrospection)
      .annotate(
        OpenApi.Description,
        "Introspection (RFC 7662) of the application's own access and refresh tokens: active with the subject (uuid, kind, id), the " +
          "application, the organizations in which the subject is still a member, the scopes and the expiry, while the token, its " +
          "session, the parent IAM session and the subject are live and one organization remains. Anything else is {active: false}. " +
          CLIENT_AUTHENTICATION
      )
  )
  .add(
    applicationEndpoint("revoke", "/api/v1/oauth/revoke", [ApplicationRevocationRequest])
      .addSuccess(Schema.Void, { status: 200 })
      .annotate(
        OpenApi.Description,
        "Revocation (RFC 7009): the application's own access or refresh token ends its whole session. An unknown token, or another " +
          "application's, answers 200 and is left alone. " + CLIENT_AUTHENTICATION
      )
  )
  .annotate(OpenApi.Title, "Application sessions")
{}

/** Proofs that an application acts for a subject now, verified by the application that receives them. */
export class OnBehalfOfApi extends HttpApiGroup.make("onBehalfOf")
  .add(
    applicationEndpoint("prove", "/api/v1/oauth/on-behalf-of-proofs", [OnBehalfOfProofRequest])
      .addSuccess(OnBehalfOfProof, { status: 201 })
      .annotate(
        OpenApi.Description,
        "The acting application shows a live access token of its session for the subject and names the audience (the app_id of " +
          "the application it is about to call for the subject); it gets an obo_ proof valid 60 seconds, for one verification by that " +
          "audience. A token that is not the application's own live access token is invalid_grant; an unknown audience invalid_request. " +
          CLIENT_AUTHENTICATION
      )
  )
  .add(
    applicationEndpoint("verify", "/api/v1/oauth/on-behalf-of-proofs/verifications", [OnBehalfOfVerificationRequest])
      .addSuccess(OnBehalfOfVerification)
      .annotate(
        OpenApi.Description,
        "The audience verifies a proof it received, authenticated as itself; the proof is spent by this call whatever it answers. " +
          "Active answers name the acting application (client_id), the subject, its organizations and the session's scopes; a proof " +
          "unknown, spent, older than 60 seconds, minted for another audience, or whose session is no longer live is {active: false}. " +
          CLIENT_AUTHENTICATION
      )
  )
  .annotate(OpenApi.Title, "On-behalf-of proofs")
{}

/**
 * IAM's application-facing API (spec 2): IAM serves these groups, and spec 3's services call them through
 * `HttpApiClient.make(IamApplicationApi, …)` (or `IamApplicationClient`).
 */
export class IamApplicationApi extends HttpApi.make("iamApplication").add(ApplicationSessionsApi).add(OnBehalfOfApi) {}
