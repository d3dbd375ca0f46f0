import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import type { TrustLevel, TrustRule } from "./Governance.ts"

interface TrustRuleRow {
  readonly id: string
  readonly organization_id: string
  readonly subject_kind: TrustRule["subject"]["kind"]
  readonly subject_value: string
  readonly level: TrustLevel
  readonly note: string | null
  readonly status: TrustRule["status"]
  readonly created_at: Date
  readonly updated_at: Date
  readonly archived_at: Date | null
}

const toRule = (row: TrustRuleRow): TrustRule => ({
  id: row.id,
  organization_id: row.organization_id,
  subject: { kind: row.subject_kind, value: row.subject_value },
  level: row.level,
  note: row.note,
  status: row.status,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
  archived_at: row.archived_at?.toISOString() ?? null
})

/** An organization's trust: its default level (a column of organizations) and its rules. */
export class TrustRepo extends Effect.Service<TrustRepo>()("iam/TrustRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const select = sql`
      select id, organization_id, subject_kind, subject_value, level, note, status, created_at, updated_at, archived_at
      from organization_trust_rules
    `
    const one = (rows: ReadonlyArray<TrustRuleRow>) => Option.map(Option.fromNullable(rows[0]), toRule)
    return {
      defaultOf: (organizationId: string) =>
        sql<{ readonly trust_default: TrustLevel }>`select trust_default from organizations where id = ${organizationId}`.pipe(
          Effect.map((rows) => rows[0]?.trust_default ?? "neutral"),
          Effect.orDie
        ),
      setDefault: (organizationId: string, level: TrustLevel) =>
        sql`update organizations set trust_default = ${level} where id = ${organizationId}`.pipe(Effect.asVoid, Effect.orDie),
      activeRulesOf: (organizationId: string) =>
        sql<TrustRuleRow>`${select} where organization_id = ${organizationId} and status = 'active' order by created_at, id`.pipe(
          Effect.map((rows) => rows.map(toRule)),
          Effect.orDie
        ),
      find: (organizationId: string, id: string) =>
        sql<TrustRuleRow>`${select} where organization_id = ${organizationId} and id = ${id}`.pipe(Effect.map(one), Effect.orDie),
      activeFor: (organizationId: string, subject: TrustRule["subject"]) =>
        sql<TrustRuleRow>`
          ${select} where organization_id = ${organizationId} and status = 'active'
            and subject_kind = ${subject.kind} and subject_value = ${subject.value}
        `.pipe(Effect.map(one), Effect.orDie),
      activeCountOf: (organizationId: string) =>
        sql<{ readonly count: number }>`
          select count(*)::int as count from organization_trust_rules where organization_id = ${organizationId} and status = 'active'
        `.pipe(Effect.map((rows) => rows[0]?.count ?? 0), Effect.orDie),
      insert: (rule: TrustRule, createdBy: string) =>
        sql`
          insert into organization_trust_rules
            (id, organization_id, subject_kind, subject_value, level, note, status, created_by, created_at, updated_at)
          values (${rule.id}, ${rule.organization_id}, ${rule.subject.kind}, ${rule.subject.value}, ${rule.level}, ${rule.note},
            'active', ${createdBy}, ${new Date(rule.created_at)}, ${new Date(rule.updated_at)})
        `.pipe(Effect.asVoid, Effect.orDie),
      update: (rule: TrustRule) =>
        sql`
          update organization_trust_rules set level = ${rule.level}, note = ${rule.note}, status = ${rule.status},
            updated_at = ${new Date(rule.updated_at)}, archived_at = ${rule.archived_at === null ? null : new Date(rule.archived_at)}
          where id = ${rule.id}
        `.pipe(Effect.asVoid, Effect.orDie)
    }
  })
}) {}
