import { Either } from "effect"
import type { Consent } from "./ConsentsRepo.ts"
import {
  ApplicationUnavailable,
  NotAnActiveMember,
  OrganizationRequired,
  ScopeNotPermitted,
  ScopeVersionChanged
} from "./errors.ts"
import type { LoginApplication } from "./LoginApplication.ts"

/** One application of a submitted approval (spec 2: app_id, org_ids, approved_scopes, scope_version). */
export interface Approval {
  readonly app_id: string
  readonly org_ids: ReadonlyArray<string>
  readonly approved_scopes: ReadonlyArray<string>
  readonly scope_version: number
}

export type ApprovalRefusal =
  | ApplicationUnavailable
  | ScopeVersionChanged
  | ScopeNotPermitted
  | OrganizationRequired
  | NotAnActiveMember

/** What one approval will record and mint. */
export interface PlannedToken {
  readonly app: LoginApplication
  readonly orgIds: ReadonlyArray<string>
  /** The consent recorded for this application. */
  readonly consent: Consent
  /** What the token carries: the approved scopes that the consent holds. */
  readonly scopes: ReadonlyArray<string>
}

const unique = <A>(items: ReadonlyArray<A>): ReadonlyArray<A> => [...new Set(items)]

/**
 * The consent after this approval: at the same scope_version the earlier one grows by the approved
 * scopes; at a new scope_version the earlier one no longer counts (a scope change needs fresh consent).
 */
const consentAfter = (approval: Approval, earlier: Consent | undefined): Consent => ({
  app_id: approval.app_id,
  scope_version: approval.scope_version,
  scopes: earlier !== undefined && earlier.scope_version === approval.scope_version
    ? unique([...earlier.scopes, ...approval.approved_scopes])
    : unique(approval.approved_scopes)
})

/** Whether the identity's consent covers the application's permissions as they are now. */
export const consentIsCurrent = (app: LoginApplication, consent: Consent | undefined): boolean =>
  consent !== undefined && consent.scope_version === app.scope_version &&
  app.app_scope.every((scope) => consent.scopes.includes(scope))

const planOne = (
  approval: Approval,
  app: LoginApplication | undefined,
  activeOrganizations: ReadonlySet<string>,
  earlier: Consent | undefined
): Either.Either<PlannedToken, ApprovalRefusal> => {
  const { app_id } = approval
  if (app === undefined) {
    return Either.left(
      new ApplicationUnavailable({ message: `No application is registered as ${app_id}.`, details: { app_id, reason: "unknown" } })
    )
  }
  if (approval.scope_version !== app.scope_version) {
    return Either.left(
      new ScopeVersionChanged({
        message: `The permissions of ${app_id} changed (scope_version ${app.scope_version}, not ${approval.scope_version}).`,
        hint: "Read its permissions again (reload the login page, or GET /api/v1/app-auth/batch/organizations) and consent to them as they are now.",
        details: { app_id, scope_version: app.scope_version }
      })
    )
  }
  const outside = approval.approved_scopes.filter((scope) => !app.app_scope.includes(scope))
  if (outside.length > 0) {
    return Either.left(
      new ScopeNotPermitted({
        message: `${app_id} is not permitted ${outside.join(", ")}.`,
        hint: "Approve only scopes of the application's app_scope.",
        details: { app_id, scopes: unique(outside) }
      })
    )
  }
  const orgIds = unique(approval.org_ids)
  if (orgIds.length === 0) {
    return Either.left(
      new OrganizationRequired({ message: `Choose at least one organization for ${app_id}.`, details: { app_id } })
    )
  }
  const stranger = orgIds.find((id) => !activeOrganizations.has(id))
  if (stranger !== undefined) {
    return Either.left(
      new NotAnActiveMember({
        message: `You are not an active member of the organization ${stranger}.`,
        details: { app_id, organization_id: stranger }
      })
    )
  }
  const consent = consentAfter(approval, earlier)
  // Spec 2: only the intersection of the approved and the consented scopes.
  const scopes = app.app_scope.filter((scope) => approval.approved_scopes.includes(scope) && consent.scopes.includes(scope))
  return Either.right({ app, orgIds, consent, scopes })
}

/**
 * Every approval checked before anything is written: the first refusal refuses the whole batch, so
 * either every token is created or none.
 */
export const planTokens = (
  approvals: ReadonlyArray<Approval>,
  applications: ReadonlyMap<string, LoginApplication>,
  activeOrganizations: ReadonlySet<string>,
  consents: ReadonlyMap<string, Consent>
): Either.Either<ReadonlyArray<PlannedToken>, ApprovalRefusal> =>
  Either.all(
    approvals.map((approval) =>
      planOne(approval, applications.get(approval.app_id), activeOrganizations, consents.get(approval.app_id))
    )
  )
