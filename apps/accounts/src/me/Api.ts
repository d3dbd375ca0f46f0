import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { errorResponse, RateLimited, strict } from "@platform/http"
import { Schema } from "effect"
import { IdReserved, IdTaken, InvalidId } from "../accounts/errors.ts"
import { CarbonOnly } from "../auth/errors.ts"
import { takesPhoto } from "../profile/Api.ts"
import { DobImmutable } from "../silicons/errors.ts"
import { AccountMe } from "../accounts/Me.ts"
import { AccountAuth } from "../auth/AccountAuth.ts"

export const MePatch = strict(Schema.Struct({
  display_name: Schema.optional(Schema.String.annotations({ description: "1 to 100 characters, no control characters" })),
  timezone: Schema.optional(Schema.String.annotations({ description: "IANA time zone name" })),
  dob: Schema.optional(Schema.String.annotations({ description: "YYYY-MM-DD, in the past, not before 1900-01-01" }))
})).annotations({ identifier: "MePatch" })

export const IdChange = strict(Schema.Struct({
  id: Schema.String.pipe(Schema.maxLength(64)).annotations({ description: "The new id: c:<handle> or si:<handle> (the account's own kind), or a bare handle" })
})).annotations({ identifier: "IdChange" })

export const AccountDeletion = strict(Schema.Struct({
  confirm_id: Schema.String.pipe(Schema.maxLength(64)).annotations({ description: "The account's current id, typed back (case-insensitive)" })
})).annotations({ identifier: "AccountDeletion" })

export class MeApi extends HttpApiGroup.make("me")
  .add(HttpApiEndpoint.get("get", "/v1/me").addSuccess(AccountMe))
  .add(
    HttpApiEndpoint.patch("update", "/v1/me")
      .setPayload(MePatch)
      .addSuccess(AccountMe)
      .addError(errorResponse(DobImmutable))
      .annotate(
        OpenApi.Description,
        "Changes the given fields; unknown fields are refused (422). `version` goes up on every change. A Silicon's dob is its creation date: changing it is 422 dob_immutable."
      )
  )
  .add(
    HttpApiEndpoint.del("delete", "/v1/me")
      .setPayload(AccountDeletion)
      .addSuccess(Schema.Void)
      .addError(errorResponse(CarbonOnly))
      .annotate(
        OpenApi.Description,
        "Deletes the caller's Carbon for good; `confirm_id` must be its current id (else 422 validation_failed). The account becomes deleted; every sign-in ends at once (access and refresh tokens, browser sessions); apps with a live membership hear account.deleted; the Silicons in its custody are deleted with it; requests to become a custodian addressed to it are declined, transfers to it cancelled; its id is kept from others for 10 days, then free. History is kept. A Silicon is deleted by its custodian (DELETE /v1/me/silicons/{uuid}): 403 carbon_only."
      )
  )
  .add(
    HttpApiEndpoint.post("changeId", "/v1/me/id")
      .setPayload(IdChange)
      .addSuccess(AccountMe)
      .addError(errorResponse(InvalidId))
      .addError(errorResponse(IdTaken))
      .addError(errorResponse(IdReserved))
      .addError(errorResponse(RateLimited))
      .annotate(
        OpenApi.Description,
        "Changes the caller's id. The old id stays reserved for the caller for 10 days (it may take it back), then is free. 5 changes per rolling 24 hours (429 rate_limited with Retry-After). Apps with a live membership hear account.id_changed."
      )
  )
  .add(
    takesPhoto(HttpApiEndpoint.post("uploadPhoto", "/v1/me/photo"))
      .addSuccess(AccountMe)
      .annotate(
        OpenApi.Description,
        "Sets the caller's photo from the image's raw bytes, sent with its media type (PNG, JPEG, WebP or GIF; 2,097,152 bytes, 8192 px a side, 50 megapixels). The format is read from the bytes: bytes of another format than the Content-Type are 415 unsupported_media_type naming the right one. The image is re-encoded without its metadata (EXIF, XMP, ICC) and served at a new URL of its own, which pfp_url then names. 20 uploads per hour. Apps hear account.updated."
      )
  )
  .add(
    HttpApiEndpoint.del("deletePhoto", "/v1/me/photo")
      .addSuccess(AccountMe)
      .annotate(OpenApi.Description, "Removes the caller's photo: pfp_url becomes the account's default picture (`/v1/photos/default/{uuid}`) and the old photo URL answers 404. Apps hear account.updated.")
  )
  .middleware(AccountAuth)
  .annotate(OpenApi.Title, "Account")
{}
