import { ApiError } from "@platform/http"
import { Schema } from "effect"

/** Errors of photo uploads (spec 1 leaves the photo codes "not shown"; decisions.md, "Photos"). */

/** The bytes are not a whole image of a format we take (cut short, corrupt, or empty). */
export class InvalidImage extends ApiError<InvalidImage>()("InvalidImage", {
  code: "invalid_image",
  status: 422
}) {}

/** More than 8192 px on a side or more than 50 megapixels (every frame of an animation counted). */
export class ImageTooLarge extends ApiError<ImageTooLarge>()("ImageTooLarge", {
  code: "image_too_large",
  status: 422,
  details: Schema.Struct({
    width: Schema.Number,
    height: Schema.Number,
    frames: Schema.Number,
    max_side_px: Schema.Number,
    max_pixels: Schema.Number
  })
}) {}

/** A photo id no stored photo has (never uploaded, replaced or removed). */
export class PhotoNotFound extends ApiError<PhotoNotFound>()("PhotoNotFound", {
  code: "photo_not_found",
  status: 404
}) {}
