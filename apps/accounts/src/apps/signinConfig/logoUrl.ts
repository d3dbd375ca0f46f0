import { Either } from "effect"
import { checkHttpsUrl } from "./urlRules.ts"

export const MAX_LOGO_BYTES = 128 * 1024

const DATA_URL = /^data:(image\/(?:png|jpeg|webp|gif|svg\+xml));base64,([A-Za-z0-9+/]*={0,2})$/

/** The first bytes each declared image type must start with, so a data URL cannot smuggle another content. */
const looksLike: Record<string, (bytes: Buffer) => boolean> = {
  "image/png": (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  "image/jpeg": (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  "image/gif": (b) => /^GIF8[79]a/.test(b.subarray(0, 6).toString("latin1")),
  "image/webp": (b) => b.subarray(0, 4).toString("latin1") === "RIFF" && b.subarray(8, 12).toString("latin1") === "WEBP",
  "image/svg+xml": (b) => /^(?:\uFEFF)?\s*(?:<\?xml[^>]*>\s*)?(?:<!--[\s\S]*?-->\s*)*(?:<!DOCTYPE[^>]*>\s*)?<svg[\s>]/i
    .test(b.subarray(0, 4096).toString("utf8"))
}

/**
 * logo_url and logo_dark_url of an App: an https URL, or an inline
 * data:image/(png|jpeg|webp|gif|svg+xml);base64 URL of at most 128 KB decoded.
 */
export const validateLogoUrl = (input: string): Either.Either<string, string> => {
  if (!input.startsWith("data:")) {
    return Either.mapLeft(checkHttpsUrl(input), () => "must be an https URL or a data:image/...;base64 URL")
  }
  if (input.length > 4 * Math.ceil(MAX_LOGO_BYTES / 3) + 64) return Either.left(`must be at most ${MAX_LOGO_BYTES / 1024} KB`)
  const match = DATA_URL.exec(input)
  if (match === null || match[2]!.length % 4 !== 0) {
    return Either.left("must be a base64 data URL of image/png, image/jpeg, image/webp, image/gif or image/svg+xml")
  }
  const bytes = Buffer.from(match[2]!, "base64")
  if (bytes.length > MAX_LOGO_BYTES) return Either.left(`must be at most ${MAX_LOGO_BYTES / 1024} KB`)
  if (bytes.length === 0) return Either.left("must not be empty")
  return looksLike[match[1]!]!(bytes) ? Either.right(input) : Either.left(`is not a valid ${match[1]} image`)
}
