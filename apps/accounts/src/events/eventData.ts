import { accountIdOf } from "../accounts/AccountRow.ts"
import { type AppAccount, appAccount, membershipId } from "../oauth/AppAccount.ts"
import type { AppAccountRow } from "../oauth/AppAccountsRepo.ts"
import type { AccountEvent, ProfileField } from "./AccountEvent.ts"

/** Who hears an event: an app (by the scopes its membership granted) or the account itself. */
export type EventAudience =
  | { readonly kind: "app"; readonly appId: string; readonly scopes: ReadonlyArray<string> }
  | { readonly kind: "account" }

/** The scopes behind the account's own view: it sees every field of itself. */
const OWN_SCOPES = "email phone dob timezone"

/** Spec 1, Webhook delivery: display_name, pfp_url (and a Silicon's custodian) always; the rest by scope, email and phone for Carbons only. */
export const fieldVisible = (field: ProfileField, kind: "carbon" | "silicon", scopes: ReadonlySet<string>): boolean => {
  switch (field) {
    case "display_name":
    case "pfp_url":
    case "custodian":
      return true
    case "timezone":
    case "dob":
      return scopes.has(field)
    case "email":
    case "phone":
      return kind === "carbon" && scopes.has(field)
  }
}

/** The changed fields this audience sees, in the order given. */
export const visibleChanges = (
  changed: ReadonlyArray<ProfileField>,
  kind: "carbon" | "silicon",
  audience: EventAudience
): ReadonlyArray<ProfileField> =>
  audience.kind === "account"
    ? changed
    : changed.filter((field) => fieldVisible(field, kind, new Set(audience.scopes)))

/** The account as this audience sees it: the app's view by scope, or every field of its own (no membership). */
export const accountView = (
  row: AppAccountRow,
  audience: EventAudience,
  publicUrl: string
): AppAccount | Omit<AppAccount, "membership_id"> => {
  if (audience.kind === "app") return appAccount(row, audience.appId, audience.scopes.join(" "), publicUrl)
  const { membership_id: _membership, ...own } = appAccount(row, "", OWN_SCOPES, publicUrl)
  return own
}

/**
 * What the event's writer knows beyond the row: the previous custodian's id, for `silicon.custodian.accepted`,
 * and the public origin, where an account without a photo has its default picture.
 */
export interface EventContext {
  readonly previousCustodianId: string | null
  readonly publicUrl: string
}

/**
 * The `data` of the event as this audience sees it (decisions.md, "Event payloads"); none when the
 * audience does not hear it (an `account.updated` whose changes it cannot see, a Silicon's STK
 * rotation for an app, a membership event for the account itself).
 */
export const eventDataFor = (
  event: AccountEvent,
  row: AppAccountRow,
  audience: EventAudience,
  context: EventContext
): Record<string, unknown> | undefined => {
  const uuid = event.accountUuid
  const membership = audience.kind === "app" ? membershipId(audience.appId, uuid) : null
  const base = { uuid, membership_id: membership }
  switch (event.type) {
    case "account.updated": {
      const changed = visibleChanges(event.changed, row.kind, audience)
      return changed.length === 0 ? undefined : { ...base, changed, account: accountView(row, audience, context.publicUrl) }
    }
    case "account.id_changed":
      return { ...base, kind: row.kind, old_id: event.oldId, new_id: event.newId }
    case "account.deleted":
      return { ...base, kind: row.kind, id: event.id }
    case "membership.access_removed":
      return audience.kind === "app" ? base : undefined
    case "membership.signed_out":
      return audience.kind === "app" ? { ...base, reason: event.reason } : undefined
    case "silicon.custodian.accepted":
      return {
        ...base,
        request_kind: event.requestKind,
        custodian: { uuid: event.custodian, id: row.custodian_uuid === event.custodian ? accountIdOf({ kind: "carbon", handle: row.custodian_handle }) : null },
        previous_custodian: event.previousCustodian === null
          ? null
          : { uuid: event.previousCustodian, id: context.previousCustodianId }
      }
    case "silicon.stk_rotated":
      return audience.kind === "account" ? { uuid, rotated_at: event.occurredAt.toISOString() } : undefined
  }
}

/** Spec 1, Webhook delivery: the envelope every receiver gets, `occurred_at` in UTC with milliseconds. */
export const envelope = (input: {
  readonly eventId: string
  readonly type: string
  readonly occurredAt: Date
  readonly appId: string | null
  readonly silicon: string | null
  readonly data: Record<string, unknown>
}) => ({
  event_id: input.eventId,
  type: input.type,
  occurred_at: input.occurredAt.toISOString(),
  app_id: input.appId,
  silicon: input.silicon,
  data: input.data
})
