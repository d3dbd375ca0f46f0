import { Either } from "effect"
import { isIP } from "node:net"
import { isLoopbackAddress, isPublicAddress } from "./addressPolicy.ts"
import { isInternalName, normalizeHostName } from "./hostName.ts"
import { loopbackAllowed, type OutboundPolicy } from "./hostPolicy.ts"

/** Longest URL accepted for photos and webhooks (spec 1, Sizes and counts). */
export const MAX_URL_LENGTH = 2048

/**
 * Checks a URL we will call later (a webhook, an issuer) at the time it is set: an absolute
 * http(s) URL of at most 2048 characters, https in production, no credentials, and a host that
 * is neither an internal name nor a non-public address. Names are resolved and checked again at
 * connect time (resolvePublicAddresses), since DNS can change. Left: the problem, in words for a person.
 */
export const checkOutboundUrl = (input: string, policy: OutboundPolicy): Either.Either<URL, string> => {
  if (input.length > MAX_URL_LENGTH) return Either.left(`must be at most ${MAX_URL_LENGTH} characters`)
  let url: URL
  try {
    url = new URL(input)
  } catch {
    return Either.left("must be an absolute URL")
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return Either.left("must be an https URL")
  if (url.username !== "" || url.password !== "") return Either.left("must not carry credentials")
  const host = normalizeHostName(url.hostname)
  if (host === undefined) return Either.left("must have a valid host name")
  const literal = isIP(host) !== 0
  const loopback = literal ? isLoopbackAddress(host) : host === "localhost"
  if (loopback && loopbackAllowed(policy)) return Either.right(url)
  if (url.protocol !== "https:" && policy.production) return Either.left("must be an https URL")
  if (url.protocol !== "https:") return Either.left("must be an https URL (http only on loopback in development)")
  if (literal ? !isPublicAddress(host) : isInternalName(host)) return Either.left("must point to a public address")
  return Either.right(url)
}
