import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { errorResponse, InvalidCursor, Page, PageQueryFields } from "@platform/http"
import { Schema } from "effect"
import { Unauthenticated } from "../auth/errors.ts"
import { IamBearer } from "../auth/IamBearer.ts"
import { StepUpRefusals } from "../auth/stepUpErrors.ts"
import { IdentityKind } from "../identities/Identity.ts"
import { CredentialPair } from "../sessions/CredentialPair.ts"
import { SessionNotFound } from "./errors.ts"

export const CurrentSession = Schema.Struct({
  session_id: Schema.String,
  identity: Schema.Struct({ uuid: Schema.String, id: Schema.String, kind: IdentityKind })
}).annotations({ identifier: "CurrentSession" })

const Timestamp = Schema.String.annotations({ description: "RFC 3339 UTC with milliseconds" })

/** One open IAM session (refresh family) of the caller's identity. */
export const SessionView = Schema.Struct({
  session_id: Schema.String,
  method: Schema.Literal("code", "silicon_token", "sso").annotations({ description: "How it was logged in: a code, a Silicon token, or an organization's SSO" }),
  created_at: Timestamp,
  last_used_at: Timestamp.annotations({ description: "The login or its last refresh" }),
  expires_at: Timestamp.annotations({ description: "The family's absolute end (900 days after login)" }),
  current: Schema.Boolean.annotations({ description: "The session this request's bearer belongs to" })
}).annotations({ identifier: "IamSession" })

export const SessionList = Page(SessionView, "IamSessionList")

/** A keyset position in the sessions list: created_at (ISO) and id. */
export const SessionPosition = Schema.Tuple(Schema.String, Schema.String)

export const EndedSessions = Schema.Struct({
  ended_sessions: Schema.Number.annotations({ description: "How many open sessions ended, this one included" })
}).annotations({ identifier: "EndedSessions" })

const SessionIdPath = Schema.Struct({ session_id: Schema.String.pipe(Schema.maxLength(100)) })

export class SessionsApi extends HttpApiGroup.make("sessions")
  .add(
    HttpApiEndpoint.get("current", "/api/v1/session")
      .addSuccess(CurrentSession)
      .annotate(OpenApi.Description, "The session this bearer belongs to and who it speaks for.")
  )
  .add(
    HttpApiEndpoint.get("list", "/api/v1/sessions")
      .setUrlParams(Schema.Struct(PageQueryFields))
      .addSuccess(SessionList)
      .addError(errorResponse(InvalidCursor))
      .annotate(OpenApi.Description, "The caller's open sessions, newest first; paged with limit and cursor.")
  )
  .add(
    HttpApiEndpoint.del("revoke", "/api/v1/sessions/:session_id")
      .setPath(SessionIdPath)
      .addSuccess(Schema.Void)
      .addError(errorResponse(SessionNotFound))
      .addError(StepUpRefusals)
      .annotate(
        OpenApi.Description,
        "Ends one of the caller's sessions: its refresh and access tokens stop at once. Needs a step-up token " +
          "(X-Step-Up-Token) for account.session_revoke on that session id."
      )
  )
  .add(
    HttpApiEndpoint.del("revokeAll", "/api/v1/sessions")
      .addSuccess(EndedSessions)
      .addError(StepUpRefusals)
      .annotate(
        OpenApi.Description,
        "Ends every session of the caller's identity, this one included, and clears the browser session cookie. " +
          "Needs a step-up token for account.sessions_revoke_all on the identity's uuid."
      )
  )
  .add(
    HttpApiEndpoint.post("logout", "/api/v1/logout")
      .addSuccess(Schema.Void)
      .annotate(OpenApi.Description, "Ends the caller's session and clears the browser session cookie.")
  )
  .middleware(IamBearer)
  .annotate(OpenApi.Title, "Sessions")
{}

export const RefreshRequest = Schema.Struct({
  refresh_token: Schema.String.pipe(Schema.maxLength(200))
}).annotations({ identifier: "RefreshRequest" })

export class SessionRefreshApi extends HttpApiGroup.make("sessionRefresh")
  .add(
    HttpApiEndpoint.post("refresh", "/api/v1/sessions/refresh")
      .setPayload(RefreshRequest)
      .addSuccess(CredentialPair)
      .addError(errorResponse(Unauthenticated))
      .annotate(
        OpenApi.Description,
        "Rotates a refresh token: a new refresh token and access token, the presented one spent. A spent token " +
          "presented again compromises its family: the session ends at once and the answer is 401 unauthenticated " +
          "(terminal: log in again). Refresh at most once at a time per family; for an exact retry of a request " +
          "whose answer was lost, send the original Idempotency-Key to get the same answer again."
      )
  )
  .annotate(OpenApi.Title, "Sessions")
{}
