import { Schema } from "effect"

/**
 * What an application may be granted (spec 2: identity and profile by default, and the permissions named in IAM
 * webhooks). `identity` is who signed in (uuid, id, kind); `self.profile.read` is their profile.
 */
export const APPLICATION_SCOPES = [
  "identity",
  "self.profile.read",
  "self.organizations.read",
  "self.trust.read",
  "organization.tags.read",
  "directory.*.read",
  "organization.trust.read",
  "organization.invitations.read",
  "organization.governance.read"
] as const
export const ApplicationScope = Schema.Literal(...APPLICATION_SCOPES)
export type ApplicationScope = typeof ApplicationScope.Type

/** Every application has these (decisions.md, "Application scopes"). */
export const DEFAULT_SCOPES: ReadonlyArray<ApplicationScope> = ["identity", "self.profile.read"]

/**
 * Permissions that read other people or an organization's security and governance: they take effect only once a
 * platform admin approves them (decisions.md, "Critical scopes").
 */
export const CRITICAL_SCOPES: ReadonlySet<ApplicationScope> = new Set([
  "directory.*.read",
  "organization.trust.read",
  "organization.invitations.read",
  "organization.governance.read"
])

export const isApplicationScope = (value: string): value is ApplicationScope =>
  (APPLICATION_SCOPES as ReadonlyArray<string>).includes(value)

/** Scopes in the order of APPLICATION_SCOPES, each once: how they are stored and shown. */
export const inScopeOrder = (scopes: Iterable<ApplicationScope>): ReadonlyArray<ApplicationScope> => {
  const wanted = new Set(scopes)
  return APPLICATION_SCOPES.filter((scope) => wanted.has(scope))
}
