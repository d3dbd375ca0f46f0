import ipaddr from "ipaddr.js"
import { isIP } from "node:net"

// IANA's global unicast block: IPv6 outside it (the IPv4-compatible ::/96, the IPv4-translated
// ::ffff:0:0/96, unassigned space) is never a public destination, whatever ipaddr.js calls it.
const globalUnicastV6 = ipaddr.IPv6.parseCIDR("2000::/3")

const parse = (address: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined =>
  isIP(address) === 0 ? undefined : ipaddr.parse(address)

/**
 * Whether an IP literal is a public destination: the range ipaddr.js classifies as 'unicast' and,
 * for IPv6, inside 2000::/3. Everything else is refused, including every IPv6 form that embeds an
 * IPv4 address (mapped, compatible, translated, NAT64, 6to4, Teredo), whatever that IPv4 is.
 */
export const isPublicAddress = (address: string): boolean => {
  const ip = parse(address)
  if (ip === undefined || ip.range() !== "unicast") return false
  return ip instanceof ipaddr.IPv4 || ip.match(globalUnicastV6)
}

/** Whether an IP literal is loopback (127.0.0.0/8, ::1, and 127.0.0.0/8 mapped into IPv6). */
export const isLoopbackAddress = (address: string): boolean => {
  const ip = parse(address)
  if (ip === undefined) return false
  const plain = ip instanceof ipaddr.IPv6 && ip.isIPv4MappedAddress() ? ip.toIPv4Address() : ip
  return plain.range() === "loopback"
}
