import { Effect, Either } from "effect"
import type { LookupAddress } from "node:dns"
import type { LookupFunction } from "node:net"
import type { OutboundPolicy } from "./hostPolicy.ts"
import { type LookupAll, resolvePublicAddresses, systemLookupAll } from "./resolvePublicAddresses.ts"

const familyNumber = (family: number | "IPv4" | "IPv6" | undefined): number =>
  family === "IPv4" ? 4 : family === "IPv6" ? 6 : family ?? 0

const noAddress = (family: number) =>
  Object.assign(new Error(`no address of family ${family}`), { code: "ENOTFOUND" })

/**
 * resolvePublicAddresses as a socket `lookup` (for an http(s) Agent or request options), so the
 * check and the connection use the same answer: no second resolution an attacker could change.
 */
export const publicOnlyLookup = (policy: OutboundPolicy, lookupAll: LookupAll = systemLookupAll): LookupFunction =>
(hostname, options, callback) => {
  void Effect.runPromise(Effect.either(resolvePublicAddresses(hostname, policy, lookupAll))).then(
    Either.match({
      onLeft: (refused) => callback(refused, ""),
      onRight: (resolved) => {
        const family = familyNumber(options.family)
        const addresses: Array<LookupAddress> = resolved
          .filter((entry) => family === 0 || entry.family === family)
          .map(({ address, family }) => ({ address, family }))
        const first = addresses[0]
        if (options.all === true) callback(null, addresses)
        else if (first === undefined) callback(noAddress(family), "")
        else callback(null, first.address, first.family)
      }
    })
  )
}
