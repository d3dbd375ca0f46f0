import { strict } from "@platform/http"
import { Schema } from "effect"
import { UpdateName } from "../events/updateNames.ts"

export const SubscriptionKind = Schema.Literal("webhook", "stream")
export type SubscriptionKind = typeof SubscriptionKind.Type
export const SubscriptionStatus = Schema.Literal("active", "paused")

/** Named updates (at least one), or "all": every update, later additions included. */
export const Updates = Schema.Union(
  Schema.Literal("all"),
  Schema.Array(UpdateName).pipe(Schema.minItems(1), Schema.maxItems(20))
).annotations({
  identifier: "SubscriptionUpdates",
  description: "Update names (id_change, display_name_change, pfp_change, timezone_change, email_change, phone_change, " +
    "custodian_change, access_removed, account_deleted), or \"all\" for every update including later additions"
})
export type Updates = typeof Updates.Type

export const Subscription = Schema.Struct({
  id: Schema.String,
  app_id: Schema.String,
  kind: SubscriptionKind,
  updates: Updates,
  status: SubscriptionStatus,
  created_at: Schema.String,
  updated_at: Schema.String
}).annotations({ identifier: "Subscription" })
export type Subscription = typeof Subscription.Type

export const NewSubscription = strict(Schema.Struct({
  kind: SubscriptionKind,
  updates: Schema.optional(Updates).annotations({
    description: "Default: id_change, display_name_change, pfp_change, access_removed, account_deleted"
  }),
  status: Schema.optional(SubscriptionStatus).annotations({ description: "Default active" })
})).annotations({ identifier: "NewSubscription" })

export const SubscriptionPatch = strict(Schema.Struct({
  updates: Schema.optional(Updates),
  status: Schema.optional(SubscriptionStatus).annotations({ description: "paused to pause, active to resume" })
})).annotations({ identifier: "SubscriptionPatch" })

export const PingQueued = Schema.Struct({
  event_id: Schema.String,
  delivery_id: Schema.String
}).annotations({ identifier: "PingQueued" })
