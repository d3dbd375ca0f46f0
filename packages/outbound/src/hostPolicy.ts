import { isLoopbackAddress, isPublicAddress } from "./addressPolicy.ts"

export interface OutboundPolicy {
  /** Production takes https only. */
  readonly production: boolean
  /** Development only: lets http and https URLs on 127.0.0.1, ::1 and localhost through. */
  readonly allowLoopback: boolean
}

/** Whether the policy lets loopback destinations through (development with the setting on). */
export const loopbackAllowed = (policy: OutboundPolicy): boolean => policy.allowLoopback && !policy.production

/** Whether the policy lets a call reach this IP literal. */
export const addressAllowed = (address: string, policy: OutboundPolicy): boolean =>
  isPublicAddress(address) || (loopbackAllowed(policy) && isLoopbackAddress(address))
