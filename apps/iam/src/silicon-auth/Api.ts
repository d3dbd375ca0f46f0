import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { AccountsUnavailable, IdentityNotActive } from "@platform/accounts-identity-api"
import { errorResponse, RateLimited } from "@platform/http"
import { InvalidCredentials, LoginLocked } from "@platform/rate-limit"
import { Schema } from "effect"
import { CredentialPair } from "../sessions/CredentialPair.ts"

const SiliconTokenForm = Schema.Struct({
  username: Schema.optional(Schema.String.pipe(Schema.maxLength(200)).annotations({ description: "The Silicon's si: id" })),
  password: Schema.optional(Schema.String.pipe(Schema.maxLength(200)).annotations({ description: "Its IAM token, stk-…" }))
}).annotations({ identifier: "SiliconTokenForm" })

export class SiliconAuthApi extends HttpApiGroup.make("siliconAuth")
  .add(
    HttpApiEndpoint.post("token", "/api/v1/silicon-auth/token")
      .setPayload(SiliconTokenForm.pipe(HttpApiSchema.withEncoding({ kind: "UrlParams" })))
      .addSuccess(CredentialPair)
      .addError(errorResponse(InvalidCredentials))
      .addError(errorResponse(LoginLocked))
      .addError(errorResponse(IdentityNotActive))
      .addError(errorResponse(RateLimited))
      .addError(errorResponse(AccountsUnavailable))
      .annotate(
        OpenApi.Description,
        "A Silicon logs in with its si: id as username and its IAM token (stk- and 32 lowercase hex) as password, sent " +
          "either as HTTP Basic (`Authorization: Basic base64(id:token)`, no body; the id as it is, `si:robot:stk-…`, split at " +
          "the last colon, or form-encoded as RFC 6749 has it, `si%3Arobot:stk-…`) or as an " +
          "application/x-www-form-urlencoded body `username=…&password=…` — not both (422). Answers a credential pair " +
          "(never cached). A wrong token, an unknown id and missing credentials are the same 401 invalid_credentials; " +
          "ten wrong tokens in a row for one id lock its login for 60 seconds (423 login_locked with Retry-After); " +
          "a right token of a Silicon that is no longer active is 403 identity_not_active; 60 attempts per minute per " +
          "IP (429 rate_limited)."
      )
  )
  .annotate(OpenApi.Title, "Silicon login")
{}
