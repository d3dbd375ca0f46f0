import type { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"
import type { EventWriter } from "./EventWriter.ts"
import { publishEvent } from "./publishEvent.ts"

/**
 * Inside the caller's transaction: the app sign-ins among `signinIds` (just ended by the account,
 * its custodian or an STK rotation) tell their apps `membership.signed_out`, once per app. A
 * sign-out does not end the membership.
 */
export const publishSignedOut = (
  events: EventWriter,
  input: { readonly accountUuid: string; readonly signinIds: ReadonlyArray<string>; readonly reason: string; readonly at: Date }
): Effect.Effect<void, SqlError> =>
  Effect.gen(function*() {
    const { sql } = events
    if (input.signinIds.length === 0) return
    const apps = yield* sql<{ readonly app_id: string }>`
      SELECT DISTINCT app_id FROM app_signins WHERE signin_id IN ${sql.in(input.signinIds)} ORDER BY app_id
    `
    for (const { app_id } of apps) {
      yield* publishEvent(events, {
        type: "membership.signed_out",
        appId: app_id,
        reason: input.reason,
        accountUuid: input.accountUuid,
        occurredAt: input.at
      })
    }
  })

/**
 * Inside the caller's transaction: the account removes an app's access (spec 1, Membership states).
 * The membership becomes access_removed, the app's live sign-ins of the account are revoked, and the
 * app hears `membership.access_removed` — then nothing more about the account until it signs in
 * again. False when there was no membership with access. No route calls it yet (DELETE
 * /v1/me/apps/{app_id} comes with a later issue).
 */
export const removeAppAccess = (
  events: EventWriter,
  input: { readonly appId: string; readonly accountUuid: string; readonly at: Date }
): Effect.Effect<boolean, SqlError> =>
  Effect.gen(function*() {
    const { sql } = events
    const removed = yield* sql`
      UPDATE memberships SET status = 'access_removed'
      WHERE app_id = ${input.appId} AND account_uuid = ${input.accountUuid} AND status <> 'access_removed'
      RETURNING 1
    `
    if (removed.length === 0) return false
    yield* sql`
      UPDATE signins SET revoked_at = ${input.at}, revoked_reason = 'access_removed'
      WHERE account_uuid = ${input.accountUuid} AND revoked_at IS NULL
        AND id IN (SELECT signin_id FROM app_signins WHERE app_id = ${input.appId})
    `
    yield* publishEvent(events, {
      type: "membership.access_removed",
      appId: input.appId,
      accountUuid: input.accountUuid,
      occurredAt: input.at
    })
    return true
  })
