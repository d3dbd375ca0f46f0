/** The fields of the account as an app sees it whose change `account.updated` reports. */
export const PROFILE_FIELDS = ["display_name", "pfp_url", "timezone", "dob", "email", "phone", "custodian"] as const
export type ProfileField = typeof PROFILE_FIELDS[number]

/**
 * One state change of an account, as its writer states it; `publishEvent` turns it into what each
 * receiver hears. `membership.*` events concern the one app named.
 */
export type AccountEventChange =
  | { readonly type: "account.updated"; readonly changed: ReadonlyArray<ProfileField> }
  | { readonly type: "account.id_changed"; readonly oldId: string; readonly newId: string }
  | { readonly type: "account.deleted"; readonly id: string | null }
  | { readonly type: "membership.access_removed"; readonly appId: string }
  | { readonly type: "membership.signed_out"; readonly appId: string; readonly reason: string }
  | {
    readonly type: "silicon.custodian.accepted"
    readonly requestKind: "initial" | "transfer"
    readonly custodian: string
    readonly previousCustodian: string | null
  }
  | { readonly type: "silicon.stk_rotated" }

export type AccountEventType = AccountEventChange["type"]

/** Every event type spec 1 names (Events: Event types and subscriptions): the account events and `ping`. */
export const EVENT_TYPES = [
  "ping",
  "account.id_changed",
  "account.updated",
  "account.deleted",
  "membership.access_removed",
  "membership.signed_out",
  "silicon.custodian.accepted",
  "silicon.stk_rotated"
] as const satisfies ReadonlyArray<AccountEventType | "ping">

export type AccountEvent = AccountEventChange & {
  readonly accountUuid: string
  readonly occurredAt: Date
}
