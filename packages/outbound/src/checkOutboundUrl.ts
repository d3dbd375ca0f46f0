import { Either } from "effect"
import { isIP } from "node:net"
import { isLoopbackAddress, isReservedAddress } from "./addressPolicy.ts"

/** Longest URL accepted for photos and webhooks (spec 1, Sizes and counts). */
export const MAX_URL_LENGTH = 2048

export interface OutboundPolicy {
  /** Production takes https only. */
  readonly production: boolean
  /** Development only: lets http and https URLs on 127.0.0.1, ::1 and localhost through. */
  readonly allowLoopback: boolean
}

const internalName = (host: string): boolean =>
  host === "localhost" || host.endsWith(".localhost") || host.endsWith(".internal") || !host.includes(".")

/**
 * Checks a URL we will call later (a webhook, an issuer) at the time it is set: an absolute
 * http(s) URL of at most 2048 characters, https in production, no credentials, and a host that
 * is neither an internal name nor a private or reserved address. Names are resolved again and
 * checked at send time, since DNS can change. Left: the problem, in words for a person.
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
  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname.toLowerCase()
  const loopback = isIP(host) !== 0 ? isLoopbackAddress(host) : host === "localhost"
  if (loopback && policy.allowLoopback && !policy.production) return Either.right(url)
  if (url.protocol !== "https:" && policy.production) return Either.left("must be an https URL")
  if (url.protocol !== "https:") return Either.left("must be an https URL (http only on loopback in development)")
  if (isIP(host) !== 0 ? isReservedAddress(host) : internalName(host)) {
    return Either.left("must point to a public address")
  }
  return Either.right(url)
}
