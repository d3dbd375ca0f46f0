import { BlockList, isIP } from "node:net"

/**
 * Addresses an outbound call must never reach: private, loopback, link-local,
 * shared, multicast, documentation and other reserved ranges (IANA special-purpose
 * registries), IPv4 and IPv6, including IPv4 mapped into IPv6.
 */
const reserved = new BlockList()
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4]
] as const) reserved.addSubnet(network, prefix, "ipv4")
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["64:ff9b::", 96],
  ["64:ff9b:1::", 48],
  ["100::", 64],
  ["2001::", 23],
  ["2001:db8::", 32],
  ["2002::", 16],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8]
] as const) reserved.addSubnet(network, prefix, "ipv6")

const loopback = new BlockList()
loopback.addSubnet("127.0.0.0", 8, "ipv4")
loopback.addAddress("::1", "ipv6")

const mappedIpv4 = (address: string): string | undefined => {
  const match = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  return match?.[1]
}

/** Whether an IP literal is loopback (127.0.0.0/8, ::1). */
export const isLoopbackAddress = (address: string): boolean => {
  const v4 = mappedIpv4(address)
  if (v4 !== undefined) return loopback.check(v4, "ipv4")
  const family = isIP(address)
  return family !== 0 && loopback.check(address, family === 4 ? "ipv4" : "ipv6")
}

/** Whether an IP literal is in a private or reserved range (loopback included). */
export const isReservedAddress = (address: string): boolean => {
  const v4 = mappedIpv4(address)
  if (v4 !== undefined) return reserved.check(v4, "ipv4")
  const family = isIP(address)
  return family !== 0 && reserved.check(address, family === 4 ? "ipv4" : "ipv6")
}
