import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { errorResponse, ValidationFailed } from "@platform/http"
import { Schema } from "effect"
import { AccountAuth } from "../auth/AccountAuth.ts"
import { CarbonOnly } from "../auth/errors.ts"
import { SiliconNotFound } from "../silicons/errors.ts"
import { FederationNotFound, TooManyFederations } from "./errors.ts"
import { Federation, FederationList, NewFederation } from "./Federation.ts"

const SiliconPath = { id: Schema.String.annotations({ description: "The Silicon's si: id or its uuid" }) }

export class FederationsApi extends HttpApiGroup.make("federations")
  .add(
    HttpApiEndpoint.get("list", "/v1/silicons/:id/federations")
      .setPath(Schema.Struct(SiliconPath))
      .addSuccess(FederationList)
      .addError(errorResponse(CarbonOnly))
      .addError(errorResponse(SiliconNotFound))
      .annotate(OpenApi.Description, "The live trusts in outside issuers of a Silicon in the caller's custody, newest first.")
  )
  .add(
    HttpApiEndpoint.post("add", "/v1/silicons/:id/federations")
      .setPath(Schema.Struct(SiliconPath))
      .setPayload(NewFederation)
      .addSuccess(Federation, { status: 201 })
      .addError(errorResponse(CarbonOnly))
      .addError(errorResponse(SiliconNotFound))
      .addError(errorResponse(TooManyFederations))
      .addError(errorResponse(ValidationFailed))
      .annotate(
        OpenApi.Description,
        "Trusts an outside issuer for a Silicon in the caller's custody: a token of `issuer` (an https URL of at most 300 characters on a public address) whose aud is or contains `audience` and whose claims meet every condition (1 to 10; a claim equals the value, or a list claim contains it) signs the Silicon in at POST /v1/oauth/token (token-exchange or jwt-bearer grant). At most 20 live trusts (409 too_many_federations)."
      )
  )
  .add(
    HttpApiEndpoint.del("remove", "/v1/silicons/:id/federations/:federation_id")
      .setPath(Schema.Struct({ ...SiliconPath, federation_id: Schema.String }))
      .addSuccess(Schema.Void)
      .addError(errorResponse(CarbonOnly))
      .addError(errorResponse(SiliconNotFound))
      .addError(errorResponse(FederationNotFound))
      .annotate(
        OpenApi.Description,
        "Removes a trust: its issuer's tokens sign nothing in through it from then on; sign-ins it made run to their end unless revoked."
      )
  )
  .middleware(AccountAuth)
  .annotate(OpenApi.Title, "Silicon federations")
{}
