import { MAX_URL_LENGTH } from "@platform/outbound"
import { Either } from "effect"

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"])

/** Whether http is allowed for loopback hosts (development, native apps) or https is required everywhere. */
export interface RedirectUriPolicy {
  readonly loopbackHttp: boolean
}

const parse = (input: string): URL | undefined => {
  try {
    return new URL(input)
  } catch {
    return undefined
  }
}

/** https, or http on localhost, 127.0.0.1 or [::1] when the policy allows it. */
export const isSecureOrLoopback = (url: URL, policy: RedirectUriPolicy = { loopbackHttp: true }): boolean =>
  url.protocol === "https:" || (policy.loopbackHttp && url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname))

/**
 * A redirect (callback) URI to register: absolute, https (http only on loopback, when allowed), no fragment,
 * no user info. Compared exactly, so kept as sent. Answers the value or a human problem.
 */
export const checkRedirectUri = (
  input: string,
  policy: RedirectUriPolicy = { loopbackHttp: true }
): Either.Either<string, string> => {
  const url = input.length <= MAX_URL_LENGTH ? parse(input) : undefined
  if (url === undefined) return Either.left(`must be an absolute URL of at most ${MAX_URL_LENGTH} characters`)
  if (!isSecureOrLoopback(url, policy)) {
    return Either.left(policy.loopbackHttp ? "must use https (http only for localhost, 127.0.0.1 or [::1])" : "must use https")
  }
  if (input.includes("#")) return Either.left("must not have a fragment")
  if (url.username !== "" || url.password !== "") return Either.left("must not carry a user name or password")
  return Either.right(input)
}
