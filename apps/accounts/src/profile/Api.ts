import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { errorResponse, MaxBodyBytes, RateLimited, TimeBudgetMillis } from "@platform/http"
import { ImageTooLarge, InvalidImage, PhotoNotFound } from "./errors.ts"
import { Schema } from "effect"
import { PHOTO_MAX_BYTES, PHOTO_TIME_BUDGET_MILLIS, PHOTO_TYPES } from "./photoImage.ts"
import { PHOTOS_PATH } from "./Photos.ts"
import { DEFAULT_PHOTOS_PATH } from "../accounts/pfpUrl.ts"

/** The body of a photo upload: the image's raw bytes, with its own media type as Content-Type. */
export const PhotoUpload = Schema.Union(
  ...Object.values(PHOTO_TYPES).map((contentType) => HttpApiSchema.Uint8Array({ contentType }))
).annotations({ description: "The image's bytes: PNG, JPEG, WebP or GIF, at most 2,097,152 bytes, 8192 px a side, 50 megapixels" })

/**
 * What every photo upload route says of itself (POST /v1/me/photo, a custodian's, a sign-up's): the
 * image's raw bytes as body, the image refusals and the upload limit, 2 MB and 60 seconds.
 */
export const takesPhoto = <Name extends string, Path, UrlParams, Headers, Success, Error, R, RE>(
  endpoint: HttpApiEndpoint.HttpApiEndpoint<Name, "POST", Path, UrlParams, never, Headers, Success, Error, R, RE>
) =>
  endpoint
    .setPayload(PhotoUpload)
    .addError(errorResponse(InvalidImage))
    .addError(errorResponse(ImageTooLarge))
    .addError(errorResponse(RateLimited))
    .annotate(MaxBodyBytes, PHOTO_MAX_BYTES)
    .annotate(TimeBudgetMillis, PHOTO_TIME_BUDGET_MILLIS)

/** Uploaded photos and default pictures, public: `pfp_url` points here. */
export class PhotosApi extends HttpApiGroup.make("photos")
  .add(
    HttpApiEndpoint.get("default", `${DEFAULT_PHOTOS_PATH}/:uuid`)
      .setPath(Schema.Struct({ uuid: Schema.String.pipe(Schema.maxLength(64)) }))
      .addSuccess(HttpApiSchema.Uint8Array({ contentType: "image/svg+xml" }))
      .addError(errorResponse(PhotoNotFound))
      .annotate(
        OpenApi.Description,
        "The default picture of an account without a photo of its own: its `pfp_url` points here. An SVG drawn from the uuid alone (a figure on a colour the uuid picks), the same for every uuid-shaped value whether or not an account has it, so it tells nothing about any account. `Cache-Control: public, max-age=86400` and an ETag (If-None-Match answers 304); a value that is not uuid-shaped is 404 photo_not_found."
      )
  )
  .add(
    HttpApiEndpoint.get("get", `${PHOTOS_PATH}/:photo_id`)
      .setPath(Schema.Struct({ photo_id: Schema.String.pipe(Schema.maxLength(64)) }))
      .addSuccess(HttpApiSchema.Uint8Array({ contentType: "image/*" }))
      .addError(errorResponse(PhotoNotFound))
      .annotate(
        OpenApi.Description,
        "An uploaded photo, as stored (re-encoded, without metadata). Each upload has a URL of its own that never changes what it serves: `Cache-Control: public, max-age=31536000, immutable` and an ETag; a replaced or removed photo is 404 photo_not_found."
      )
  )
  .annotate(OpenApi.Title, "Photos")
{}
