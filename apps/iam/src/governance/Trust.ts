import { SqlClient } from "@effect/sql"
import { randomToken } from "@platform/crypto"
import { inTransaction } from "@platform/database"
import { ValidationFailed } from "@platform/http"
import { now } from "@platform/service"
import { Effect, Option } from "effect"
import type { AuthenticatedIdentity } from "../auth/CurrentIdentity.ts"
import { OrganizationAccess } from "../organizations/OrganizationAccess.ts"
import { OrganizationEvents } from "../organizations/OrganizationEvents.ts"
import { TrustRuleArchived, TrustRuleExists, TrustRuleLimitReached, TrustRuleNotFound } from "./errors.ts"
import { MAX_TRUST_RULES, type TrustLevel, type TrustRule, type TrustSubject } from "./Governance.ts"
import { TrustRepo } from "./TrustRepo.ts"

export interface TrustRuleFields {
  readonly level?: TrustLevel | undefined
  /** Null or empty clears it. */
  readonly note?: string | null | undefined
}

const ruleData = (rule: TrustRule, changed: ReadonlyArray<string>, extra: Record<string, unknown> = {}) => () =>
  Effect.succeed({ changed, current: { resource: rule }, ...extra })

/**
 * An organization's trust (decisions.md, "Governance"): a default level and rules naming outside
 * organizations, identities or email domains at a level. Members read it; admins change it.
 */
export class Trust extends Effect.Service<Trust>()("iam/Trust", {
  effect: Effect.gen(function*() {
    const transaction = inTransaction(yield* SqlClient.SqlClient)
    const trust = yield* TrustRepo
    const access = yield* OrganizationAccess
    const events = yield* OrganizationEvents

    const policyOf = (organizationId: string) =>
      Effect.gen(function*() {
        return {
          organization_id: organizationId,
          default_level: yield* trust.defaultOf(organizationId),
          rules: yield* trust.activeRulesOf(organizationId)
        }
      })

    const ruleOf = (organizationId: string, ruleId: string) =>
      Effect.flatMap(trust.find(organizationId, ruleId), Option.match({
        onNone: () => Effect.fail(new TrustRuleNotFound({ message: "The organization has no trust rule with this id." })),
        onSome: Effect.succeed
      }))

    const active = (rule: TrustRule) =>
      rule.status === "active"
        ? Effect.succeed(rule)
        : Effect.fail(new TrustRuleArchived({ message: "This trust rule is archived; create a new one for its subject." }))

    return {
      read: (actor: AuthenticatedIdentity, organizationId: string) =>
        Effect.zipRight(access.read(organizationId, actor.uuid, "member"), policyOf(organizationId)),
      readRule: (actor: AuthenticatedIdentity, organizationId: string, ruleId: string) =>
        Effect.zipRight(access.read(organizationId, actor.uuid, "member"), ruleOf(organizationId, ruleId)),
      /** The level of parties no rule names (admins); the same level again changes nothing. */
      setDefault: (actor: AuthenticatedIdentity, organizationId: string, level: TrustLevel) =>
        Effect.gen(function*() {
          yield* access.change(organizationId, actor.uuid, "admin")
          const previous = yield* trust.defaultOf(organizationId)
          if (previous !== level) {
            yield* trust.setDefault(organizationId, level)
            yield* events.publish(organizationId, actor.uuid, "organization.trust.default_updated.v1", () =>
              Effect.succeed({
                changed: ["default_level"],
                current: { resource: { organization_id: organizationId, default_level: level } },
                previous: { default_level: previous }
              }))
          }
          return yield* policyOf(organizationId)
        }).pipe(transaction),
      createRule: (
        actor: AuthenticatedIdentity,
        organizationId: string,
        fields: { readonly subject: TrustSubject; readonly level: TrustLevel; readonly note?: string | null | undefined }
      ) =>
        Effect.gen(function*() {
          yield* access.change(organizationId, actor.uuid, "admin")
          if (fields.subject.kind === "organization" && fields.subject.value === organizationId) {
            return yield* new ValidationFailed({
              message: "An organization's trust is about others, not itself.",
              details: { fields: { "subject.value": "is this organization" } }
            })
          }
          const existing = yield* trust.activeFor(organizationId, fields.subject)
          if (Option.isSome(existing)) {
            return yield* new TrustRuleExists({
              message: "An active rule already names this subject: change or archive it.",
              details: { rule_id: existing.value.id }
            })
          }
          if ((yield* trust.activeCountOf(organizationId)) >= MAX_TRUST_RULES) {
            return yield* new TrustRuleLimitReached({
              message: `An organization has at most ${MAX_TRUST_RULES} active trust rules.`,
              details: { limit: MAX_TRUST_RULES }
            })
          }
          const at = (yield* now).toISOString()
          const rule: TrustRule = {
            id: randomToken("trr_", 16),
            organization_id: organizationId,
            subject: fields.subject,
            level: fields.level,
            note: fields.note === undefined || fields.note === "" ? null : fields.note,
            status: "active",
            created_at: at,
            updated_at: at,
            archived_at: null
          }
          yield* trust.insert(rule, actor.uuid)
          yield* events.publish(organizationId, actor.uuid, "organization.trust.rule_created.v1", ruleData(rule, ["subject", "level", "note"]))
          return rule
        }).pipe(transaction),
      /** A new level or note for an active rule (admins); its subject is fixed. A patch that changes nothing makes no version. */
      updateRule: (actor: AuthenticatedIdentity, organizationId: string, ruleId: string, fields: TrustRuleFields) =>
        Effect.gen(function*() {
          yield* access.change(organizationId, actor.uuid, "admin")
          const before = yield* Effect.flatMap(ruleOf(organizationId, ruleId), active)
          const note = fields.note === "" ? null : fields.note
          const changed = [
            ...(fields.level !== undefined && fields.level !== before.level ? ["level"] : []),
            ...(note !== undefined && note !== before.note ? ["note"] : [])
          ]
          if (changed.length === 0) return before
          const rule: TrustRule = {
            ...before,
            level: fields.level ?? before.level,
            note: note === undefined ? before.note : note,
            updated_at: (yield* now).toISOString()
          }
          yield* trust.update(rule)
          yield* events.publish(
            organizationId,
            actor.uuid,
            "organization.trust.rule_updated.v1",
            ruleData(rule, changed, { previous: { level: before.level, note: before.note } })
          )
          return rule
        }).pipe(transaction),
      /** Archives an active rule (admins): it stops applying and is kept for the record; archiving twice is 409. */
      archiveRule: (actor: AuthenticatedIdentity, organizationId: string, ruleId: string) =>
        Effect.gen(function*() {
          yield* access.change(organizationId, actor.uuid, "admin")
          const before = yield* Effect.flatMap(ruleOf(organizationId, ruleId), active)
          const at = (yield* now).toISOString()
          const rule: TrustRule = { ...before, status: "archived", updated_at: at, archived_at: at }
          yield* trust.update(rule)
          yield* events.publish(organizationId, actor.uuid, "organization.trust.rule_archived.v1", ruleData(rule, ["status"]))
          return rule
        }).pipe(transaction)
    }
  }),
  dependencies: [TrustRepo.Default, OrganizationAccess.Default, OrganizationEvents.Default]
}) {}
