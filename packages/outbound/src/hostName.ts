import { isIP } from "node:net"
import { domainToASCII } from "node:url"

/**
 * The form of a host name the name rules see: IDNA to ASCII (which also lowercases) and without
 * trailing dots, so `LOCALHOST.`, `localhost..` and `localhost` are one name. An IPv6 literal
 * loses its brackets. Undefined when nothing valid is left.
 */
export const normalizeHostName = (host: string): string | undefined => {
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host
  if (isIP(bare) !== 0) return bare.toLowerCase()
  const name = domainToASCII(bare).replace(/\.+$/, "")
  return name === "" || name.startsWith(".") || name.includes("..") ? undefined : name
}

// Special-use names that never lead to a public host: spec 1 names localhost and .internal;
// RFC 6761, 6762 and 8375 add .local, .home.arpa, .invalid and .test.
const internalSuffixes = ["localhost", "internal", "local", "home.arpa", "invalid", "test"]

/** Whether a normalized name is internal: a single label, or under a special-use suffix. */
export const isInternalName = (name: string): boolean =>
  !name.includes(".") || internalSuffixes.some((suffix) => name === suffix || name.endsWith(`.${suffix}`))
