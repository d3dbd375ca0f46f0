import { ApiError } from "@platform/http"

/** Silicons do not step up: an action that needs it is taken by a Carbon (decisions.md, "Step-up"). */
export class CarbonRequired extends ApiError<CarbonRequired>()("CarbonRequired", {
  code: "carbon_required",
  status: 403
}) {}

/** The Carbon has no verified address on the channel asked for. */
export class ChannelNotVerified extends ApiError<ChannelNotVerified>()("ChannelNotVerified", {
  code: "channel_not_verified",
  status: 409
}) {}
