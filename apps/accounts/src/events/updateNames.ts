import { Schema } from "effect"
import type { ProfileField } from "./AccountEvent.ts"

/** Spec 1, Event types and subscriptions: what a subscription chooses to hear. */
export const UPDATE_NAMES = [
  "id_change",
  "display_name_change",
  "pfp_change",
  "timezone_change",
  "email_change",
  "phone_change",
  "custodian_change",
  "access_removed",
  "account_deleted"
] as const
export const UpdateName = Schema.Literal(...UPDATE_NAMES)
export type UpdateName = typeof UpdateName.Type

/** What a subscription made without a choice hears, and what an app with a webhook URL and no subscription hears. */
export const DEFAULT_UPDATES: ReadonlyArray<UpdateName> = [
  "id_change",
  "display_name_change",
  "pfp_change",
  "access_removed",
  "account_deleted"
]

/** A subscription's choice: named updates, or every update including later additions. */
export type UpdateChoice = { readonly all: true } | { readonly all: false; readonly names: ReadonlyArray<UpdateName> }

/** The update name of each changed field; a dob change has none and reaches only subscriptions of all updates. */
const FIELD_UPDATE: Readonly<Record<ProfileField, UpdateName | null>> = {
  display_name: "display_name_change",
  pfp_url: "pfp_change",
  timezone: "timezone_change",
  dob: null,
  email: "email_change",
  phone: "phone_change",
  custodian: "custodian_change"
}

/** An app event as subscriptions see it: its type and, for `account.updated`, the fields the app sees change. */
export type AppEventKind =
  | { readonly type: "account.updated"; readonly changed: ReadonlyArray<ProfileField> }
  | { readonly type: "account.id_changed" | "account.deleted" | "membership.access_removed" | "membership.signed_out" | "silicon.custodian.accepted" }

/** The update names an app event falls under (any one of them subscribed takes it). */
export const updateNamesOf = (event: AppEventKind): ReadonlyArray<UpdateName> => {
  switch (event.type) {
    case "account.updated":
      return event.changed.flatMap((field) => FIELD_UPDATE[field] ?? [])
    case "account.id_changed":
      return ["id_change"]
    case "account.deleted":
      return ["account_deleted"]
    case "membership.access_removed":
    case "membership.signed_out":
      return ["access_removed"]
    case "silicon.custodian.accepted":
      return ["custodian_change"]
  }
}

/** Whether a subscription with this choice takes the event. */
export const choiceTakes = (choice: UpdateChoice, event: AppEventKind): boolean =>
  choice.all || updateNamesOf(event).some((name) => choice.names.includes(name))
