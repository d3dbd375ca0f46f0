import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { errorResponse } from "@platform/http"
import {
  IdentityTokenNotAccepted,
  InvalidAuthorization,
  InvalidToken,
  SessionExpired,
  TokenRevoked,
  TokenWrongAudience
} from "../auth/errors.ts"
import { AccessRemoved, MembershipInactive, Unauthenticated, UserinfoAppDisabled } from "./errors.ts"
import { UserInfo } from "./UserInfo.ts"

const DESCRIPTION =
  "OpenID Connect userinfo with the bearer of an app access token (header only). The account as the app sees it by the granted scopes, beside the standard claims sub, name, picture, email, email_verified, phone_number, phone_number_verified, birthdate, zoneinfo and updated_at (seconds). First-party and client-developer tokens: 401 token_wrong_audience. no-store."

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

export class UserinfoApi extends HttpApiGroup.make("userinfo")
  .add(withUserinfoErrors(HttpApiEndpoint.get("get", "/v1/userinfo")))
  .add(withUserinfoErrors(HttpApiEndpoint.post("post", "/v1/userinfo")))
  .annotate(OpenApi.Title, "Userinfo")
{}
