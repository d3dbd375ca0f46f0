import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { errorResponse, RateLimited, strict } from "@platform/http"
import { Schema } from "effect"
import { IdReserved, IdTaken, InvalidId } from "../accounts/errors.ts"
import { TokenResponse } from "../oauth/TokenResponse.ts"
import { InitialRequestView, RequestStatusView } from "./CustodianRequest.ts"
import {
  AccountDeleted,
  CustodianDeclined,
  CustodianExpired,
  CustodianNotFound,
  CustodianPending,
  CustodianRequestPending,
  InvalidAssertion,
  InvalidCredentials,
  InvalidRequestToken,
  InvalidStk,
  LoginLocked,
  RequestTokenRequired
} from "./errors.ts"
import { SiliconMe } from "../accounts/Me.ts"

const Text = (max: number, description: string) => Schema.String.pipe(Schema.maxLength(max)).annotations({ description })

/** The fields a new Silicon takes, whoever creates it. */
export const NewSiliconFields = {
  id: Text(40, "si:<handle> or a bare handle (it gets the si: prefix); 3 to 30 of a-z 0-9 - _"),
  display_name: Text(400, "1 to 100 characters, no control characters"),
  timezone: Schema.optional(Text(64, "IANA name; default UTC")),
  pfp_url: Schema.optional(Text(4096, "https URL, at most 2048 characters")),
  stk: Schema.optional(Text(64, "Chosen STK: stk- and 8 to 32 hex characters (bare hex accepted, case ignored); generated when absent")),
  webhook_url: Schema.optional(Text(4096, "https URL on a public address; its signing secret is shown once in the answer"))
}

export const SelfCreation = strict(Schema.Struct({
  ...NewSiliconFields,
  custodian: Text(400, "The Carbon asked to be custodian: a c: id or an email address")
})).annotations({ identifier: "SiliconSelfCreation" })

export const SelfCreationResponse = Schema.Struct({
  silicon: SiliconMe,
  stk: Schema.NullOr(Schema.String).annotations({ description: "The generated STK, shown only here; null when chosen" }),
  request: InitialRequestView,
  request_token: Schema.String.annotations({ description: "sarq_ bearer for GET /v1/silicons/requests/{id}; shown only here" }),
  webhook_secret: Schema.NullOr(Schema.String).annotations({ description: "whsec_ secret, shown only here; null without webhook_url" })
}).annotations({ identifier: "SiliconSelfCreationResponse" })

export const SiliconLogin = strict(Schema.Struct({
  id: Schema.optional(Text(64, "si:<handle> or the Silicon's uuid; with stk")),
  stk: Schema.optional(Text(64, "The STK; with id")),
  assertion: Schema.optional(Text(16_384, "A key sign-in assertion (JWT signed with one of the Silicon's keys); alone")),
  client_label: Schema.optional(Schema.String.annotations({ description: "Names this sign-in; cut at 100 characters" }))
})).annotations({ identifier: "SiliconLogin" })

const RequestId = Schema.Struct({ id: Schema.String.pipe(Schema.maxLength(100)) })

export class SiliconsApi extends HttpApiGroup.make("silicons")
  .add(
    HttpApiEndpoint.post("create", "/v1/silicons")
      .setPayload(SelfCreation)
      .addSuccess(SelfCreationResponse, { status: 201 })
      .addError(errorResponse(InvalidId))
      .addError(errorResponse(IdTaken))
      .addError(errorResponse(IdReserved))
      .addError(errorResponse(CustodianNotFound))
      .addError(errorResponse(CustodianRequestPending))
      .addError(errorResponse(RateLimited))
      .annotate(
        OpenApi.Description,
        "An agent creates its own Silicon, pending until the named Carbon accepts custody (14 days). Public; " +
          "idempotent with Idempotency-Key for 10 minutes (the same key returns the same secrets). Unknown fields 422. " +
          "10 successful and 60 attempts per hour per IP; at most 20 self-created Silicons wait for one custodian " +
          "(409 custodian_request_pending)."
      )
  )
  .add(
    HttpApiEndpoint.get("request", "/v1/silicons/requests/:id")
      .setPath(RequestId)
      .addSuccess(RequestStatusView)
      .addError(errorResponse(RequestTokenRequired))
      .addError(errorResponse(InvalidRequestToken))
      .annotate(
        OpenApi.Description,
        "The custodian request of a self-created Silicon, read with its sarq_ token as bearer. Poll starting at 5 seconds, doubling to 60."
      )
  )
  .add(
    HttpApiEndpoint.post("login", "/v1/silicons/login")
      .setPayload(SiliconLogin)
      .addSuccess(TokenResponse)
      .addError(errorResponse(InvalidId))
      .addError(errorResponse(InvalidStk))
      .addError(errorResponse(InvalidCredentials))
      .addError(errorResponse(InvalidAssertion))
      .addError(errorResponse(LoginLocked))
      .addError(errorResponse(CustodianPending))
      .addError(errorResponse(CustodianDeclined))
      .addError(errorResponse(CustodianExpired))
      .addError(errorResponse(AccountDeleted))
      .addError(errorResponse(RateLimited))
      .annotate(
        OpenApi.Description,
        "Silicon sign-in with {id, stk} or {assertion}; both forms at once 422. An unknown id and a wrong STK get the " +
          "same 401 invalid_credentials in the same time; ten wrong STKs in a row lock sign-in for 60 seconds (423). " +
          "60 per minute per IP. Answers the Token response with the first-party audience."
      )
  )
  .annotate(OpenApi.Title, "Silicons")
{}
