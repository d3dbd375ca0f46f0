import { SqlClient } from "@effect/sql"
import { now } from "@platform/service"
import { Effect } from "effect"
import { isApplicationForbidden } from "./projection.ts"

/** A receiver of one event, and whether it is still authorized after the change (else it gets a tombstone). */
export type AuthorizationRow =
  | {
    readonly kind: "application"
    readonly appId: string
    readonly scopes: ReadonlySet<string>
    readonly consentingUuids: ReadonlySet<string>
    readonly authorizedAfter: boolean
    readonly departedUuids: ReadonlyArray<string>
  }
  | {
    readonly kind: "silicon"
    readonly uuid: string
    readonly authorizedAfter: boolean
    readonly departedUuids: ReadonlyArray<string>
  }

/** One live application session of a member (or of a member who just left) naming the organization. */
export interface ConsentRow {
  readonly app_id: string
  readonly identity_uuid: string
  readonly scopes: ReadonlyArray<string>
  readonly app_scope: ReadonlyArray<string>
  readonly active: boolean
}

/**
 * Applications authorized for the organization, from their consenting sessions: authorized after the
 * change through an active member's session, with the union of those sessions' scopes (within the
 * application's app_scope now); authorized only before through a member the change removed.
 */
export const applicationsFrom = (rows: ReadonlyArray<ConsentRow>): ReadonlyArray<AuthorizationRow> => {
  const byApp = new Map<string, Array<ConsentRow>>()
  for (const row of rows) byApp.set(row.app_id, [...(byApp.get(row.app_id) ?? []), row])
  return [...byApp.entries()].map(([appId, sessions]): AuthorizationRow => {
    const active = sessions.filter((session) => session.active)
    const allowed = new Set(sessions[0]!.app_scope)
    return {
      kind: "application",
      appId,
      scopes: new Set(active.flatMap((session) => session.scopes).filter((scope) => allowed.has(scope))),
      consentingUuids: new Set(active.map((session) => session.identity_uuid)),
      authorizedAfter: active.length > 0,
      departedUuids: [...new Set(sessions.filter((session) => !session.active).map((session) => session.identity_uuid))]
    }
  })
}

/**
 * The event's receivers, read in the change's transaction (so "after" is the state it leaves):
 * applications with a live session (not ended, not expired) of an active member naming the organization,
 * or of a member the event says left (`departed`), whose webhook_scope holds the type; and Silicon
 * subscribers of the organization subscribed to the type, active members or just departed.
 */
export const recipientsOf = (organizationId: string, type: string, departed: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const at = yield* now
    const typeList = JSON.stringify([type])
    const left = departed.length === 0 ? sql`false` : sql`m.identity_uuid in ${sql.in(departed)}`
    const applications = isApplicationForbidden(type) ? [] : yield* sql<ConsentRow>`
      select s.app_id, s.identity_uuid, s.scopes, a.app_scope, (m.status = 'active') as active
      from application_sessions s
      join applications a on a.app_id = s.app_id
      join organization_members m on m.organization_id = ${organizationId} and m.identity_uuid = s.identity_uuid
      where a.webhook_scope @> ${typeList}::jsonb
        and s.org_ids @> ${JSON.stringify([organizationId])}::jsonb
        and s.expires_at > ${at}
        and (s.ended_at is null or (${left} and s.ended_at >= ${at}))
        and (m.status = 'active' or ${left})
    `.pipe(Effect.orDie)
    const silicons = yield* sql<{ readonly uuid: string; readonly active: boolean }>`
      select m.identity_uuid as uuid, (m.status = 'active') as active
      from iam_webhook_endpoints e
      join organization_members m on m.organization_id = e.organization_id and e.receiver = 'silicon:' || m.identity_uuid
      where e.organization_id = ${organizationId} and e.event_types @> ${typeList}::jsonb
        and (m.status = 'active' or ${left})
    `.pipe(Effect.orDie)
    return [
      ...applicationsFrom(applications),
      ...silicons.map((silicon): AuthorizationRow => ({
        kind: "silicon",
        uuid: silicon.uuid,
        authorizedAfter: silicon.active,
        departedUuids: silicon.active ? [] : [silicon.uuid]
      }))
    ]
  })
