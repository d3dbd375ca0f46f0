import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { errorResponse, InvalidCursor, Page, PageQueryFields } from "@platform/http"
import { Schema } from "effect"
import { AccountAuth } from "../auth/AccountAuth.ts"
import { SessionNotFound } from "../auth/errors.ts"
import { Session } from "../oauth/Signin.ts"

export const SessionList = Page(Session, "SessionList")

/** A keyset position in the sessions list: created_at (ISO) and id. */
export const SessionPosition = Schema.Tuple(Schema.String, Schema.String)

export const RevokedCount = Schema.Struct({ revoked: Schema.Number }).annotations({ identifier: "RevokedCount" })

export class SessionsApi extends HttpApiGroup.make("sessions")
  .add(
    HttpApiEndpoint.get("current", "/v1/session")
      .addSuccess(Session)
      .annotate(OpenApi.Description, "The sign-in this request authenticated with.")
  )
  .add(
    HttpApiEndpoint.get("list", "/v1/me/sessions")
      .setUrlParams(Schema.Struct(PageQueryFields))
      .addSuccess(SessionList)
      .addError(errorResponse(InvalidCursor))
      .annotate(OpenApi.Description, "The account's live sign-ins, newest first; paged with limit and cursor.")
  )
  .add(
    HttpApiEndpoint.del("revoke", "/v1/me/sessions/:session_id")
      .setPath(Schema.Struct({ session_id: Schema.String.pipe(Schema.pattern(/^sgn_[A-Za-z0-9_-]{1,64}$/)) }))
      .addSuccess(Schema.Void)
      .addError(errorResponse(SessionNotFound))
      .annotate(OpenApi.Description, "Revokes one sign-in: its refresh tokens and access tokens stop at once.")
  )
  .add(
    HttpApiEndpoint.del("revokeAll", "/v1/me/sessions")
      .addSuccess(RevokedCount)
      .annotate(OpenApi.Description, "Revokes every sign-in of the account, this one included.")
  )
  .middleware(AccountAuth)
  .annotate(OpenApi.Title, "Sessions")
{}
