import { MAX_URL_LENGTH } from "@platform/outbound"
import { Either } from "effect"

/** An https URL of at most 2048 characters that we show or link to, never fetch (photos, homepages). */
export const validateHttpsUrl = (input: string): Either.Either<string, string> => {
  if (input.length > MAX_URL_LENGTH) return Either.left(`must be at most ${MAX_URL_LENGTH} characters`)
  try {
    const url = new URL(input)
    return url.protocol === "https:" ? Either.right(url.href) : Either.left("must be an https URL")
  } catch {
    return Either.left("must be an https URL")
  }
}
