import { isSecureOrLoopback } from "@platform/oauth"
import { MAX_URL_LENGTH } from "@platform/outbound"
import { Either } from "effect"

/** URL and address rules of a signin_config; each answers the value or a human problem. */

const parse = (input: string): URL | undefined => {
  try {
    return new URL(input)
  } catch {
    return undefined
  }
}

/** An origin exactly as a browser sends it: scheme://host[:port], lower case, no default port, no path. */
export const checkOrigin = (input: string): Either.Either<string, string> => {
  const url = input.length <= MAX_URL_LENGTH ? parse(input) : undefined
  if (url === undefined || url.origin === "null" || url.origin !== input) {
    return Either.left(
      url && url.origin !== "null" && input.startsWith(url.origin)
        ? `must be an origin without path, query or fragment, such as ${url.origin}`
        : "must be an origin: scheme://host[:port] in lower case, such as https://app.example.com"
    )
  }
  if (!isSecureOrLoopback(url)) return Either.left("must use https (http only for localhost, 127.0.0.1 or [::1])")
  return Either.right(input)
}

/** A public https URL (terms, privacy). */
export const checkHttpsUrl = (input: string): Either.Either<string, string> => {
  const url = input.length <= MAX_URL_LENGTH ? parse(input) : undefined
  return url?.protocol === "https:" && url.hostname !== ""
    ? Either.right(input)
    : Either.left(`must be an https URL of at most ${MAX_URL_LENGTH} characters`)
}

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/

/** A lower-case DNS name of at least two labels (internationalized names in their xn-- form). */
export const checkDomain = (input: string): Either.Either<string, string> => {
  const labels = input.split(".")
  return input.length <= 253 && labels.length >= 2 && labels.every((label) => LABEL.test(label)) &&
      !/^[0-9]+$/.test(labels[labels.length - 1]!)
    ? Either.right(input)
    : Either.left("must be a lower-case domain name such as example.com")
}

/** An email address: local part of printable characters without spaces, @, then a domain. */
export const checkEmail = (input: string): Either.Either<string, string> => {
  const at = input.lastIndexOf("@")
  const local = input.slice(0, at)
  const domain = input.slice(at + 1).toLowerCase()
  return at > 0 && input.length <= 254 && local.length <= 64 && /^[!-~]+$/.test(local) && !local.includes("@") &&
      Either.isRight(checkDomain(domain))
    ? Either.right(input)
    : Either.left("must be an email address such as support@example.com")
}
