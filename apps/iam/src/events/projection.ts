/**
 * What one recipient of an IAM event may read of it (spec 2, Events; decisions.md, "Webhooks"): pure, so
 * that the table below is the whole rule. An application reads an event only when its consented scopes
 * hold what the event's type needs, and then only the members and fields those scopes show. A Silicon
 * subscriber is a member of the organization and reads the event as written.
 */

export interface EventForProjection {
  readonly type: string
  readonly data: {
    readonly changed: ReadonlyArray<string>
    readonly current: Readonly<Record<string, unknown>>
    readonly [extra: string]: unknown
  }
}

/** An application as a recipient: the union of its consenting sessions' scopes and who those sessions belong to. */
export interface ApplicationRecipient {
  readonly scopes: ReadonlySet<string>
  /** The identities whose sessions authorize the application for the organization (their own data is "self"). */
  readonly consentingUuids: ReadonlySet<string>
}

/** The scope an event type needs besides seeing members or the organization. */
export const TYPE_SCOPES: ReadonlyArray<readonly [prefix: string, scope: string]> = [
  ["organization.tag_created.", "organization.tags.read"],
  ["organization.tag_updated.", "organization.tags.read"],
  ["organization.trust.", "organization.trust.read"],
  ["organization.invitation.", "organization.invitations.read"],
  ["organization.role_change.requested.", "organization.governance.read"],
  ["organization.tag_change.requested.", "organization.governance.read"],
  ["organization.approval.decided.", "organization.governance.read"]
]

/** Never delivered to applications, whatever their webhook_scope says. */
export const isApplicationForbidden = (type: string): boolean =>
  type.startsWith("sso.") || type.startsWith("organization.silicon.webhook") ||
  type === "organization.silicon.rotation_requested.v1"

/** Fields that exist only with a scope: removed anywhere in a payload whose recipient lacks it. */
const FIELD_SCOPES: ReadonlyArray<readonly [field: string, scope: string]> = [
  ["tags", "organization.tags.read"],
  ["tag_ids", "organization.tags.read"],
  ["trust", "organization.trust.read"]
]

/** Credential data an application never receives (a rotation says only that it happened). */
const CREDENTIAL_FIELDS = new Set(["rotated_at", "token", "credential", "secret", "token_digest"])

const DIRECTORY = "directory.*.read"
const SELF_ORGANIZATIONS = "self.organizations.read"

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date)

/** `value` without the fields in `drop`, at any depth. */
const without = (value: unknown, drop: ReadonlySet<string>): unknown => {
  if (drop.size === 0) return value
  if (Array.isArray(value)) return value.map((item) => without(item, drop))
  if (!isRecord(value)) return value
  return Object.fromEntries(Object.entries(value).filter(([key]) => !drop.has(key)).map(([key, item]) => [key, without(item, drop)]))
}

const memberUuid = (member: unknown): string | undefined => {
  if (!isRecord(member)) return undefined
  const identity = member["identity"]
  if (isRecord(identity) && typeof identity["uuid"] === "string") return identity["uuid"]
  return typeof member["uuid"] === "string" ? member["uuid"] : undefined
}

/**
 * The event's data as this application may read it, or undefined when it may read nothing of it:
 * - the type's scope (TYPE_SCOPES) is required;
 * - `current.members`: every member with `directory.*.read`; only the consenting identities' own with
 *   `self.organizations.read`; an event left with no member it may see is not delivered;
 * - `current.organization`: with `self.organizations.read` or `directory.*.read`;
 * - `current.resource` (invitations, governance, tags): as the type's scope allows;
 * - `previous_owner_uuid` (someone else's identity) needs `directory.*.read` unless it is a consenting identity;
 * - fields of FIELD_SCOPES are removed without their scope; credential fields always.
 */
export const projectForApplication = (
  event: EventForProjection,
  recipient: ApplicationRecipient
): EventForProjection["data"] | undefined => {
  if (isApplicationForbidden(event.type)) return undefined
  const needed = TYPE_SCOPES.find(([prefix]) => event.type.startsWith(prefix))
  if (needed !== undefined && !recipient.scopes.has(needed[1])) return undefined
  const directory = recipient.scopes.has(DIRECTORY)
  const self = recipient.scopes.has(SELF_ORGANIZATIONS)
  const { changed, current, ...extra } = event.data
  const projected: Record<string, unknown> = {}
  if (current["members"] !== undefined) {
    const members = Array.isArray(current["members"]) ? current["members"] : []
    const visible = members.filter((member) => {
      if (directory) return true
      const uuid = memberUuid(member)
      return self && uuid !== undefined && recipient.consentingUuids.has(uuid)
    })
    if (visible.length === 0) return undefined
    projected["members"] = visible
  }
  if (current["organization"] !== undefined) {
    if (!directory && !self) return undefined
    projected["organization"] = current["organization"]
  }
  if (current["resource"] !== undefined) {
    // A resource without a type scope (none in spec 2's list) is organization data.
    if (needed === undefined && !directory && !self) return undefined
    projected["resource"] = current["resource"]
  }
  if (Object.keys(projected).length === 0 && Object.keys(current).length > 0) return undefined
  const kept = Object.fromEntries(Object.entries(extra).filter(([key, value]) =>
    key !== "previous_owner_uuid" || directory || (typeof value === "string" && recipient.consentingUuids.has(value))
  ))
  const unscoped = FIELD_SCOPES.filter(([, scope]) => !recipient.scopes.has(scope)).map(([field]) => field)
  // `changed` names fields: "credential" says a rotation happened, which an application may know.
  const visibleChanges = changed.filter((field) => !unscoped.includes(field))
  const drop = new Set([...unscoped, ...CREDENTIAL_FIELDS])
  const { current: visible, ...others } = without({ current: projected, ...kept }, drop) as {
    readonly current: Readonly<Record<string, unknown>>
    readonly [extra: string]: unknown
  }
  return { ...others, changed: visibleChanges, current: visible }
}

/** The identities an event says left the organization: who was authorized before it and may not be after. */
export const departedIdentities = (event: EventForProjection): ReadonlyArray<string> => {
  if (event.type !== "organization.membership.removed.v1" && event.type !== "organization.silicon.removed.v1") return []
  const members = Array.isArray(event.data.current["members"]) ? event.data.current["members"] : []
  return members.flatMap((member) => {
    const uuid = memberUuid(member)
    return uuid === undefined ? [] : [uuid]
  })
}
