import type { RateLimitRule } from "@platform/rate-limit"

/**
 * Every new flow row counts here, whichever way it is made: POST /v1/flows, and GET /authorize
 * with prompt=none, which makes and decides its flow at once.
 */
export const flowCreationsPerIp: RateLimitRule = {
  id: "flows_create",
  operation: "POST /v1/flows",
  limit: 300,
  window: "1 minute",
  per: "IP"
}
