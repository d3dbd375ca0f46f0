import type { ValidationFailed } from "@platform/http"
import type { OutboundPolicy } from "@platform/outbound"
import { Effect } from "effect"
import { parseAccountId } from "../accounts/AccountId.ts"
import { InvalidId } from "../accounts/errors.ts"
import type { SiliconInput } from "./Custody.ts"
import { FieldCheck } from "../accounts/FieldCheck.ts"
import { siliconFieldRules, validateWebhookUrl } from "./siliconFields.ts"
import { generateStk } from "./stk.ts"

export interface NewSiliconBody {
  readonly id: string
  readonly display_name: string
  readonly timezone?: string | undefined
  readonly pfp_url?: string | undefined
  readonly stk?: string | undefined
  readonly webhook_url?: string | undefined
}

/**
 * A new Silicon's body, checked: the id first (422 invalid_id, as for every
 * id), then every other field at once (422 validation_failed). Without a
 * chosen STK one is generated; `generatedStk` is it, to be shown once. Without a time zone the
 * Silicon takes `defaultTimezone`.
 */
export const newSiliconInput = (body: NewSiliconBody, webhooks: OutboundPolicy, defaultTimezone = "UTC") =>
  Effect.gen(function*() {
    const id = yield* parseAccountId(body.id, "silicon")
    if (id.kind !== "silicon") {
      return yield* Effect.fail<InvalidId | ValidationFailed>(
        new InvalidId({ message: `A Silicon's id starts with si:, not ${JSON.stringify(body.id)}.`, details: { reason: "invalid" } })
      )
    }
    const fields = new FieldCheck()
    const displayName = fields.check("display_name", body.display_name, siliconFieldRules.displayName)
    const timezone = fields.check("timezone", body.timezone ?? defaultTimezone, siliconFieldRules.timezone)
    const pfpUrl = fields.check("pfp_url", body.pfp_url, siliconFieldRules.pfpUrl)
    const chosenStk = fields.check("stk", body.stk, siliconFieldRules.stk)
    const webhookUrl = fields.check("webhook_url", body.webhook_url, validateWebhookUrl(webhooks))
    yield* fields.result
    const generatedStk = body.stk === undefined ? generateStk() : null
    const input: SiliconInput = {
      handle: id.handle,
      displayName: displayName!,
      timezone: timezone!,
      pfpUrl: pfpUrl ?? null,
      stk: chosenStk ?? generatedStk!,
      webhookUrl: webhookUrl ?? null
    }
    return { input, generatedStk }
  })

export const outboundPolicy = (config: { readonly environment: string; readonly webhookAllowLoopback: boolean }): OutboundPolicy => ({
  production: config.environment === "production",
  allowLoopback: config.webhookAllowLoopback
})

