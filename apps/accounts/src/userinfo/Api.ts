import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { errorResponse, lenient } from "@platform/http"
import { Schema } from "effect"
import {
  IdentityTokenNotAccepted,
  InvalidAuthorization,
  InvalidToken,
  SessionExpired,
  TokenRevoked,
  TokenWrongAudience,
  Unauthenticated
} from "../auth/errors.ts"
import { AccessRemoved, MembershipInactive, TwoTokens, UserinfoAppDisabled } from "./errors.ts"
import { UserInfo } from "./UserInfo.ts"

const DESCRIPTION =
  "OpenID Connect userinfo with the bearer of an app access token: in the Authorization header, or (POST only, RFC 6750 §2.2) as access_token in a form body; both at once is 400 invalid_request. The account as the app sees it by the granted scopes, beside the standard claims sub, name, picture, email, email_verified, phone_number, phone_number_verified, birthdate, zoneinfo and updated_at (seconds). First-party and client-developer tokens: 401 token_wrong_audience. no-store."

const withUserinfoErrors = <Name extends string, Method extends "GET" | "POST">(
  endpoint: HttpApiEndpoint.HttpApiEndpoint<Name, Method>
) =>
  endpoint
    .addSuccess(UserInfo)
    .addError(errorResponse(Unauthenticated))
    .addError(errorResponse(InvalidAuthorization))
    .addError(errorResponse(InvalidToken))
    .addError(errorResponse(TokenWrongAudience))
    .addError(errorResponse(IdentityTokenNotAccepted))
    .addError(errorResponse(TokenRevoked))
    .addError(errorResponse(SessionExpired))
    .addError(errorResponse(UserinfoAppDisabled))
    .addError(errorResponse(AccessRemoved))
    .addError(errorResponse(MembershipInactive))
    .annotate(OpenApi.Description, DESCRIPTION)

/** RFC 6750 §2.2: the form body of POST /v1/userinfo may carry the token; other parameters are ignored. */
export const UserinfoForm = lenient(Schema.Struct(
  { access_token: Schema.optional(Schema.String.annotations({ description: "The app access token, instead of the Authorization header" })) },
  Schema.Record({ key: Schema.String, value: Schema.String })
)).pipe(HttpApiSchema.withEncoding({ kind: "UrlParams" })).annotations({ identifier: "UserinfoForm" })

export class UserinfoApi extends HttpApiGroup.make("userinfo")
  .add(withUserinfoErrors(HttpApiEndpoint.get("get", "/v1/userinfo")))
  .add(
    withUserinfoErrors(HttpApiEndpoint.post("post", "/v1/userinfo"))
      .setPayload(UserinfoForm)
      .addError(errorResponse(TwoTokens))
  )
  .annotate(OpenApi.Title, "Userinfo")
{}
