export { isLoopbackAddress, isPublicAddress } from "./addressPolicy.ts"
export { checkOutboundUrl, MAX_URL_LENGTH } from "./checkOutboundUrl.ts"
export { isInternalName, normalizeHostName } from "./hostName.ts"
export type { OutboundPolicy } from "./hostPolicy.ts"
export { publicOnlyLookup } from "./publicOnlyLookup.ts"
export {
  type LookupAll,
  OutboundAddressRefused,
  OutboundLookupFailed,
  resolvePublicAddresses,
  type ResolvedAddress,
  systemLookupAll
} from "./resolvePublicAddresses.ts"
export { type BoundedGet, boundedGet, OutboundFetchFailed } from "./boundedGet.ts"
export { describeOutboundError } from "./describeOutboundError.ts"
