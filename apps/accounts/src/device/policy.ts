import { Duration } from "effect"
import type { RateLimitRule } from "@platform/rate-limit"

/** How long a device code and its user code live (spec 1, Lifetimes). */
export const DEVICE_CODE_LIFETIME = Duration.seconds(600)
/** The polling interval a device starts with (spec 1, Lifetimes). */
export const POLL_INTERVAL_SECONDS = 5
/** RFC 8628 §3.5: each slow_down adds 5 seconds to that device code's interval. */
export const SLOW_DOWN_STEP_SECONDS = 5
/** Network jitter and clock differences between servers: a poll this much early still counts as on time. */
export const POLL_TOLERANCE = Duration.seconds(1)
/** Device codes are deleted 7 days after they expire (spec 1, Retention). */
export const DEVICE_CODE_RETENTION = Duration.days(7)
/** client_label longer than this is cut (spec 1, Sizes and counts). */
export const CLIENT_LABEL_LIMIT = 100
/** The device code's prefix, like the spec's other secrets (sac_, sar_, …). */
export const DEVICE_CODE_PREFIX = "sad_"

export const authorizationsPerIp: RateLimitRule = {
  id: "device_authorize",
  operation: "POST /v1/device/authorize",
  limit: 60,
  window: "10 minutes",
  per: "IP"
}

/** Spec 1, Limits: "600 per 10 minutes per app's tools", counted per client once it is known. */
export const authorizationsPerApp: RateLimitRule = {
  id: "device_authorize_app",
  operation: "POST /v1/device/authorize",
  limit: 600,
  window: "10 minutes",
  per: "app"
}

/** Lookups, approvals and denials share one window. */
export const decisionsPerCarbon: RateLimitRule = {
  id: "device_decide",
  operation: "Device code lookup, approve and deny",
  limit: 60,
  window: "10 minutes",
  per: "Carbon"
}
