import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { errorResponse } from "@platform/http"
import { PhotoNotFound } from "./errors.ts"
import { Schema } from "effect"
import { PHOTO_TYPES } from "./photoImage.ts"
import { PHOTOS_PATH } from "./Photos.ts"

/** The body of a photo upload: the image's raw bytes, with its own media type as Content-Type. */
export const PhotoUpload = Schema.Union(
  ...Object.values(PHOTO_TYPES).map((contentType) => HttpApiSchema.Uint8Array({ contentType }))
).annotations({ description: "The image's bytes: PNG, JPEG, WebP or GIF, at most 2,097,152 bytes, 8192 px a side, 50 megapixels" })

/** Uploaded photos, public: `pfp_url` points here. */
export class PhotosApi extends HttpApiGroup.make("photos")
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
