export { isLoopbackAddress, isReservedAddress } from "./addressPolicy.ts"
export { checkOutboundUrl, MAX_URL_LENGTH, type OutboundPolicy } from "./checkOutboundUrl.ts"
