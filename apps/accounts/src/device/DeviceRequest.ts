import { Schema } from "effect"
import type { DeviceCodeRow } from "./DeviceCodeRow.ts"
import { displayUserCode } from "./userCode.ts"

/** What a signed-in Carbon sees of a device sign-in before deciding it. */
export const DeviceRequest = Schema.Struct({
  user_code: Schema.String.annotations({ description: "As shown on the device, e.g. WDJB-MJHT" }),
  client_id: Schema.String,
  client_label: Schema.NullOr(Schema.String).annotations({ description: "Chosen by the device: show it as untrusted" }),
  status: Schema.Literal("pending", "approved", "denied").annotations({
    description: "approved stays approved once the device has collected its tokens"
  }),
  created_at: Schema.String,
  expires_at: Schema.String
}).annotations({ identifier: "DeviceRequest" })
export type DeviceRequest = typeof DeviceRequest.Type

export const deviceRequestOf = (row: DeviceCodeRow): DeviceRequest => ({
  user_code: displayUserCode(row.user_code),
  client_id: row.client_id,
  client_label: row.client_label,
  status: row.status === "used" ? "approved" : row.status,
  created_at: row.created_at.toISOString(),
  expires_at: row.expires_at.toISOString()
})
