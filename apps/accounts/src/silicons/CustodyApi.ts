import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { errorResponse, InvalidCursor, Page, PageQueryFields, RateLimited, strict } from "@platform/http"
import { takesPhoto } from "../profile/Api.ts"
import { Schema } from "effect"
import { IdReserved, IdTaken, InvalidId } from "../accounts/errors.ts"
import { AccountAuth } from "../auth/AccountAuth.ts"
import { CarbonOnly } from "../auth/errors.ts"
import { NewSiliconFields } from "./Api.ts"
import { CustodianRequest, RequestStatus } from "./CustodianRequest.ts"
import {
  AlreadyCustodian,
  SiliconNotPending,
  CustodianNotFound,
  CustodianRequestExpired,
  CustodianRequestNotFound,
  CustodianRequestNotPending,
  DobImmutable,
  InvalidStk,
  SiliconNotFound,
  TransferNotFound,
  TransferPending,
  TransferStale,
  TransferToSelf
} from "./errors.ts"
import { SiliconMe } from "../accounts/Me.ts"

const Text = (max: number, description: string) => Schema.String.pipe(Schema.maxLength(max)).annotations({ description })

/** A Silicon as its custodian sees it: the Account plus the pending transfer, if any. */
export const CustodianSiliconView = Schema.Struct({
  ...SiliconMe.fields,
  pending_transfer: Schema.NullOr(CustodianRequest)
}).annotations({ identifier: "CustodianSilicon" })

export const CustodianSiliconPage = Page(CustodianSiliconView, "CustodianSiliconPage")
export const CustodianRequestPage = Page(CustodianRequest, "CustodianRequestPage")

export const CreatedSilicon = Schema.Struct({
  silicon: SiliconMe,
  stk: Schema.NullOr(Schema.String).annotations({ description: "The generated STK, shown only here; null when chosen" }),
  webhook_secret: Schema.NullOr(Schema.String).annotations({ description: "whsec_ secret, shown only here; null without webhook_url" })
}).annotations({ identifier: "CreatedSilicon" })

export const SiliconDetailsPatch = strict(Schema.Struct({
  display_name: Schema.optional(Text(400, "1 to 100 characters, no control characters")),
  timezone: Schema.optional(Text(64, "IANA name")),
  dob: Schema.optional(Text(32, "Immutable: the creation date; any other value is 422 dob_immutable"))
})).annotations({ identifier: "SiliconDetailsPatch" })

export const SiliconIdChange = strict(Schema.Struct({ id: Text(64, "si:<handle> or a bare handle") }))
  .annotations({ identifier: "SiliconIdChange" })
export const StkRotation = strict(Schema.Struct({ stk: Schema.optional(Text(64, "Chosen STK; generated when absent")) }))
  .annotations({ identifier: "StkRotation" })
export const StkRotated = Schema.Struct({
  stk: Schema.NullOr(Schema.String).annotations({ description: "The generated STK, shown only here; null when chosen" }),
  rotated_at: Schema.String
}).annotations({ identifier: "StkRotated" })
export const TransferInput = strict(Schema.Struct({ to: Text(400, "The Carbon to take custody: a c: id or an email") }))
  .annotations({ identifier: "TransferInput" })

const SiliconPath = Schema.Struct({ uuid: Schema.String.pipe(Schema.maxLength(16)) })
const RequestPath = Schema.Struct({ id: Schema.String.pipe(Schema.maxLength(100)) })


export class CustodianRequestsApi extends HttpApiGroup.make("custodianRequests")
  .add(
    HttpApiEndpoint.get("list", "/v1/me/custodian-requests")
      .setUrlParams(Schema.Struct({ status: Schema.optional(RequestStatus), ...PageQueryFields }))
      .addSuccess(CustodianRequestPage)
      .addError(errorResponse(InvalidCursor))
      .annotate(OpenApi.Description, "Requests asking the caller to become a Silicon's custodian (initial and transfer), newest first.")
  )
  .add(
    HttpApiEndpoint.post("accept", "/v1/me/custodian-requests/:id/accept")
      .setPath(RequestPath)
      .addSuccess(CustodianRequest)
      .addError(errorResponse(CustodianRequestNotFound))
      .addError(errorResponse(CustodianRequestNotPending))
      .addError(errorResponse(CustodianRequestExpired))
      .addError(errorResponse(TransferStale))
      .addError(errorResponse(AlreadyCustodian))
      .addError(errorResponse(SiliconNotPending))
      .annotate(
        OpenApi.Description,
        "Accepts custody: a self-created Silicon becomes active; a transfer moves the Silicon to the caller. Event silicon.custodian.accepted."
      )
  )
  .add(
    HttpApiEndpoint.post("decline", "/v1/me/custodian-requests/:id/decline")
      .setPath(RequestPath)
      .addSuccess(CustodianRequest)
      .addError(errorResponse(CustodianRequestNotFound))
      .addError(errorResponse(CustodianRequestNotPending))
      .addError(errorResponse(CustodianRequestExpired))
      .annotate(
        OpenApi.Description,
        "Declines: a self-created Silicon is deleted and its id is free at once; a declined transfer leaves custody as it was."
      )
  )
  .addError(errorResponse(CarbonOnly))
  .middleware(AccountAuth)
  .annotate(OpenApi.Title, "Custodian requests")
{}

export class MySiliconsApi extends HttpApiGroup.make("mySilicons")
  .add(
    HttpApiEndpoint.get("list", "/v1/me/silicons")
      .setUrlParams(Schema.Struct(PageQueryFields))
      .addSuccess(CustodianSiliconPage)
      .addError(errorResponse(InvalidCursor))
      .annotate(OpenApi.Description, "The Silicons in the caller's custody, newest first.")
  )
  .add(
    HttpApiEndpoint.post("create", "/v1/me/silicons")
      .setPayload(strict(Schema.Struct(NewSiliconFields)).annotations({ identifier: "NewSilicon" }))
      .addSuccess(CreatedSilicon, { status: 201 })
      .addError(errorResponse(InvalidId))
      .addError(errorResponse(IdTaken))
      .addError(errorResponse(IdReserved))
      .annotate(OpenApi.Description, "Creates a Silicon in the caller's custody, active at once. Secrets are shown only in this answer.")
  )
  .add(
    HttpApiEndpoint.get("get", "/v1/me/silicons/:uuid")
      .setPath(SiliconPath)
      .addError(errorResponse(SiliconNotFound))
      .addSuccess(CustodianSiliconView)
  )
  .add(
    HttpApiEndpoint.patch("update", "/v1/me/silicons/:uuid")
      .setPath(SiliconPath)
      .addError(errorResponse(SiliconNotFound))
      .setPayload(SiliconDetailsPatch)
      .addSuccess(CustodianSiliconView)
      .addError(errorResponse(DobImmutable))
      .annotate(OpenApi.Description, "Changes display_name or timezone; version goes up on a change. dob is immutable (422 dob_immutable).")
  )
  .add(
    takesPhoto(HttpApiEndpoint.post("photo", "/v1/me/silicons/:uuid/photo").setPath(SiliconPath))
      .addError(errorResponse(SiliconNotFound))
      .addSuccess(CustodianSiliconView)
      .annotate(
        OpenApi.Description,
        "Sets the Silicon's photo from the image's raw bytes, exactly as POST /v1/me/photo does for the caller (same formats, sizes, checks and 20 uploads per hour, counted for the Silicon). Apps hear account.updated."
      )
  )
  .add(
    HttpApiEndpoint.post("changeId", "/v1/me/silicons/:uuid/id")
      .setPath(SiliconPath)
      .addError(errorResponse(SiliconNotFound))
      .setPayload(SiliconIdChange)
      .addSuccess(CustodianSiliconView)
      .addError(errorResponse(InvalidId))
      .addError(errorResponse(IdTaken))
      .addError(errorResponse(IdReserved))
      .addError(errorResponse(RateLimited))
      .annotate(
        OpenApi.Description,
        "Changes the Silicon's id; the old one stays reserved for it for 10 days. 5 changes per rolling 24 hours. Event account.id_changed."
      )
  )
  .add(
    HttpApiEndpoint.post("rotateStk", "/v1/me/silicons/:uuid/stk")
      .setPath(SiliconPath)
      .addError(errorResponse(SiliconNotFound))
      .setPayload(StkRotation)
      .addSuccess(StkRotated)
      .addError(errorResponse(InvalidStk))
      .annotate(
        OpenApi.Description,
        "Replaces the STK (chosen, or generated and shown once). The Silicon's sign-ins are revoked. Event silicon.stk_rotated."
      )
  )
  .add(
    HttpApiEndpoint.post("transfer", "/v1/me/silicons/:uuid/transfer")
      .setPath(SiliconPath)
      .addError(errorResponse(SiliconNotFound))
      .setPayload(TransferInput)
      .addSuccess(CustodianRequest, { status: 201 })
      .addError(errorResponse(TransferPending))
      .addError(errorResponse(TransferToSelf))
      .addError(errorResponse(CustodianNotFound))
      .addError(errorResponse(RateLimited))
      .annotate(
        OpenApi.Description,
        "Asks another Carbon to take the Silicon over; it decides with the custodian-request routes within 14 days. One pending transfer per Silicon; 30 per hour per custodian."
      )
  )
  .add(
    HttpApiEndpoint.post("cancelTransfer", "/v1/me/silicons/:uuid/transfer/cancel")
      .setPath(SiliconPath)
      .addError(errorResponse(SiliconNotFound))
      .addSuccess(CustodianRequest)
      .addError(errorResponse(TransferNotFound))
      .annotate(OpenApi.Description, "Cancels the pending transfer.")
  )
  .add(
    HttpApiEndpoint.del("delete", "/v1/me/silicons/:uuid")
      .setPath(SiliconPath)
      .addError(errorResponse(SiliconNotFound))
      .addSuccess(Schema.Void)
      .annotate(
        OpenApi.Description,
        "Deletes the Silicon: its id is freed, its sign-ins and keys are revoked. Event account.deleted."
      )
  )
  .addError(errorResponse(CarbonOnly))
  .middleware(AccountAuth)
  .annotate(OpenApi.Title, "Silicons in custody")
{}
