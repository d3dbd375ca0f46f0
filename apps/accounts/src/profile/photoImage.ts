import { UnsupportedMediaType } from "@platform/http"
import { Effect } from "effect"
import sharp from "sharp"
import { ImageTooLarge, InvalidImage } from "./errors.ts"

/** Spec 1, Sizes and counts: a profile photo. */
/** Spec 1, Time budget per request: photos 60 seconds. */
export const PHOTO_TIME_BUDGET_MILLIS = 60_000

export const PHOTO_MAX_BYTES = 2_097_152
export const PHOTO_MAX_SIDE_PX = 8192
export const PHOTO_MAX_PIXELS = 50_000_000

/** The media types a photo is sent with, by the format sharp reads from the bytes. */
export const PHOTO_TYPES = {
  png: "image/png",
  jpeg: "image/jpeg",
  webp: "image/webp",
  gif: "image/gif"
} as const
export type PhotoType = typeof PHOTO_TYPES[keyof typeof PHOTO_TYPES]
const ACCEPTED: ReadonlyArray<string> = Object.values(PHOTO_TYPES)

export interface Photo {
  readonly contentType: PhotoType
  readonly bytes: Buffer
  readonly width: number
  readonly height: number
}

const isPhotoFormat = (format: string | undefined): format is keyof typeof PHOTO_TYPES =>
  format !== undefined && Object.hasOwn(PHOTO_TYPES, format)

const notAnImage = () =>
  new InvalidImage({ message: "The body is not a readable PNG, JPEG, WebP or GIF image." })

/**
 * A photo as we keep it: its format read from the bytes (never from the Content-Type, which must
 * agree), its size checked from the header before any pixel is decoded, then decoded and encoded
 * again in the same format, which leaves every metadata block (EXIF, XMP, ICC, comments) behind.
 * Animations keep their frames; the 50-megapixel budget counts them all.
 */
export const normalizePhoto = (
  declared: string,
  body: Uint8Array
): Effect.Effect<Photo, InvalidImage | ImageTooLarge | UnsupportedMediaType> =>
  Effect.gen(function*() {
    const input = Buffer.from(body.buffer, body.byteOffset, body.byteLength)
    const metadata = yield* Effect.tryPromise({
      try: () => sharp(input, { animated: true }).metadata(),
      catch: notAnImage
    })
    if (!isPhotoFormat(metadata.format)) {
      return yield* new UnsupportedMediaType({
        message: `The body is ${metadata.format ?? "an unknown format"}; a photo is PNG, JPEG, WebP or GIF.`,
        details: { received: declared, expected: ACCEPTED }
      })
    }
    const actual = PHOTO_TYPES[metadata.format]
    if (actual !== declared) {
      return yield* new UnsupportedMediaType({
        message: `The body is ${actual}, not ${declared}: send it with Content-Type ${actual}.`,
        details: { received: declared, expected: [actual] }
      })
    }
    const frames = metadata.pages ?? 1
    const width = metadata.width
    const height = metadata.pageHeight ?? metadata.height
    if (width === undefined || height === undefined) return yield* notAnImage()
    if (width > PHOTO_MAX_SIDE_PX || height > PHOTO_MAX_SIDE_PX || width * height * frames > PHOTO_MAX_PIXELS) {
      return yield* new ImageTooLarge({
        message: `The image is ${width}×${height} px${frames > 1 ? ` in ${frames} frames` : ""}; a photo is at most ` +
          `${PHOTO_MAX_SIDE_PX} px a side and ${PHOTO_MAX_PIXELS / 1_000_000} megapixels in all.`,
        details: { width, height, frames, max_side_px: PHOTO_MAX_SIDE_PX, max_pixels: PHOTO_MAX_PIXELS }
      })
    }
    const image = sharp(input, { animated: true, limitInputPixels: PHOTO_MAX_PIXELS, failOn: "error" })
    // sharp writes no metadata unless asked (`keepMetadata`/`withMetadata`); orientation is applied first.
    const encoded = metadata.format === "png"
      ? image.rotate().png()
      : metadata.format === "jpeg"
      ? image.rotate().jpeg({ quality: 90, mozjpeg: true })
      : metadata.format === "webp"
      ? image.webp({ quality: 90 })
      : image.gif()
    const bytes = yield* Effect.tryPromise({ try: () => encoded.toBuffer(), catch: notAnImage })
    return { contentType: actual, bytes, width, height }
  })
