import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { errorResponse, RateLimited } from "@platform/http"
import { Schema } from "effect"
import { AccountAuth } from "../../auth/AccountAuth.ts"
import { CarbonOnly, SiliconOnly } from "../../auth/errors.ts"
import { AudienceNotAllowed, SiliconNotFound } from "../errors.ts"
import { IdentityAudiences, IdentityAudiencesInput, IdentityToken, NewIdentityToken } from "./IdentityToken.ts"

const SiliconPath = Schema.Struct({
  id: Schema.String.annotations({ description: "The Silicon's si: id or its uuid" })
})

export class SiliconIdentityApi extends HttpApiGroup.make("siliconIdentity")
  .add(
    HttpApiEndpoint.post("issue", "/v1/me/identity-tokens")
      .setPayload(NewIdentityToken)
      .addSuccess(IdentityToken, { status: 201 })
      .addError(errorResponse(SiliconOnly))
      .addError(errorResponse(AudienceNotAllowed))
      .addError(errorResponse(RateLimited))
      .annotate(
        OpenApi.Description,
        "Issues an identity token for the signed-in Silicon to hand to a cloud provider: an RS256 JWT signed with the RSA key of /.well-known/jwks.json, for one of the Silicon's identity audiences (else 403 audience_not_allowed). Never accepted as a bearer token here. 60 per minute per Silicon."
      )
  )
  .add(
    HttpApiEndpoint.get("audiences", "/v1/silicons/:id/identity-audiences")
      .setPath(SiliconPath)
      .addSuccess(IdentityAudiences)
      .addError(errorResponse(CarbonOnly))
      .addError(errorResponse(SiliconNotFound))
      .annotate(OpenApi.Description, "The identity-token audiences allowed for a Silicon in the caller's custody.")
  )
  .add(
    HttpApiEndpoint.put("setAudiences", "/v1/silicons/:id/identity-audiences")
      .setPath(SiliconPath)
      .setPayload(IdentityAudiencesInput)
      .addSuccess(IdentityAudiences)
      .addError(errorResponse(CarbonOnly))
      .addError(errorResponse(SiliconNotFound))
      .annotate(
        OpenApi.Description,
        "Replaces the allowed identity-token audiences of a Silicon in the caller's custody: 0 to 20, each 1 to 400 characters; duplicates are removed. Tokens issued before stay valid until they expire."
      )
  )
  .middleware(AccountAuth)
  .annotate(OpenApi.Title, "Silicon identity tokens")
{}
