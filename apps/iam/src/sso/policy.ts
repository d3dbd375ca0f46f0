import type { OutboundPolicy } from "@platform/outbound"
import { Duration } from "effect"
import type { IamSettings } from "../config.ts"

/** IAM's outbound rule, as for callback URLs: http and loopback only in development. */
export const ssoOutboundPolicy = (config: IamSettings): OutboundPolicy => ({
  production: config.environment === "production",
  allowLoopback: config.environment === "development"
})

/** A sign-in round trip (redirect to callback) must finish within this. */
export const SSO_ROUND_TRIP = Duration.minutes(10)
/** A provider event's timestamp may be this far from IAM's clock. */
export const PROVIDER_EVENT_TOLERANCE = Duration.minutes(5)
/** The browser cookie binding a round trip to the browser that started it. */
export const SSO_STATE_COOKIE = "iam_sso_state"
/** Entitlements allow 1 to this many connections. */
export const MAX_CONNECTIONS = 20

export const ssoCallbackUrl = (publicUrl: string) => `${publicUrl}/api/v1/sso/callback`
export const ssoLoginUrl = (publicUrl: string, connectionId: string) => `${publicUrl}/api/v1/sso/connections/${connectionId}/login`
export const ssoWebhookUrl = (publicUrl: string, connectionId: string) =>
  `${publicUrl}/api/v1/sso/connections/${connectionId}/provider-events`
