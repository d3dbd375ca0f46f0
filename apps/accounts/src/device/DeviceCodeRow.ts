import { Schema } from "effect"

export const DeviceCodeStatus = Schema.Literal("pending", "approved", "denied", "used")
export type DeviceCodeStatus = typeof DeviceCodeStatus.Type

/** One `device_codes` row as stored. */
export const DeviceCodeRow = Schema.Struct({
  device_code_hash: Schema.String,
  user_code: Schema.String,
  client_id: Schema.String,
  client_label: Schema.NullOr(Schema.String),
  status: DeviceCodeStatus,
  account_uuid: Schema.NullOr(Schema.String),
  interval_seconds: Schema.Number,
  created_at: Schema.DateFromSelf,
  expires_at: Schema.DateFromSelf,
  last_polled_at: Schema.NullOr(Schema.DateFromSelf),
  decided_at: Schema.NullOr(Schema.DateFromSelf),
  used_at: Schema.NullOr(Schema.DateFromSelf)
})
export type DeviceCodeRow = typeof DeviceCodeRow.Type
