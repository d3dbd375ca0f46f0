import { checkOutboundUrl, type OutboundPolicy } from "@platform/outbound"
import { Either } from "effect"
import { validateHttpsUrl } from "../accounts/httpsUrl.ts"
import { validateDisplayName, validateTimezone } from "../accounts/profileFields.ts"
import { normalizeStk } from "./stk.ts"

/** A webhook URL, through the outbound guard. */
export const validateWebhookUrl = (policy: OutboundPolicy) => (input: string): Either.Either<string, string> =>
  Either.map(checkOutboundUrl(input, policy), (url) => url.href)

export const siliconFieldRules = {
  displayName: validateDisplayName,
  timezone: validateTimezone,
  pfpUrl: validateHttpsUrl,
  stk: normalizeStk
} as const
