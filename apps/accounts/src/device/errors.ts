import { ApiError } from "@platform/http"
import { Schema } from "effect"

/** Errors of device sign-in as a Carbon decides it (decided here; spec 1 does not list them). */

export class DeviceCodeNotFound extends ApiError<DeviceCodeNotFound>()("DeviceCodeNotFound", {
  code: "device_code_not_found",
  status: 404,
  description: "No device sign-in has this user code (mistyped, never issued, or expired more than 7 days ago)"
}) {}

export class DeviceCodeExpired extends ApiError<DeviceCodeExpired>()("DeviceCodeExpired", {
  code: "device_code_expired",
  status: 410,
  description: "The device sign-in's 600 seconds have passed: start it again on the device"
}) {}

export class DeviceCodeDecided extends ApiError<DeviceCodeDecided>()("DeviceCodeDecided", {
  code: "device_code_decided",
  status: 409,
  details: Schema.Struct({ status: Schema.Literal("approved", "denied") }),
  description: "The device sign-in was approved or denied already"
}) {}
