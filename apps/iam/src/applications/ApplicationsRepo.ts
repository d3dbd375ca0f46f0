import { SqlClient } from "@effect/sql"
import { rowsDecoder, violatedConstraint } from "@platform/database"
import { Effect, Option, Schema } from "effect"
import { ApplicationIdTaken } from "./errors.ts"
import type { ValidRegistration } from "./registration.ts"
import { ApplicationScope } from "./scopes.ts"
import { ApplicationEventType } from "./webhookScope.ts"

export const ApplicationRow = Schema.Struct({
  app_id: Schema.String,
  name: Schema.String,
  secret_digest: Schema.String,
  app_scope: Schema.Array(ApplicationScope),
  webhook_scope: Schema.Array(ApplicationEventType),
  consent_required: Schema.Boolean,
  scope_version: Schema.Int,
  callback_urls: Schema.Array(Schema.String),
  owner_uuid: Schema.NullOr(Schema.String),
  organization_id: Schema.NullOr(Schema.String),
  created_at: Schema.DateFromSelf,
  secret_rotated_at: Schema.DateFromSelf
})
export type ApplicationRow = typeof ApplicationRow.Type
const decodeApplications = rowsDecoder(ApplicationRow)
const COLUMNS = Object.keys(ApplicationRow.fields).join(", ")

const PendingScopeRow = Schema.Struct({ scope: ApplicationScope, requested_at: Schema.DateFromSelf })
export type PendingScopeRow = typeof PendingScopeRow.Type
const decodePending = rowsDecoder(PendingScopeRow)

/** Registered applications and their critical scope requests. Database failures are defects, except a taken app_id. */
export class ApplicationsRepo extends Effect.Service<ApplicationsRepo>()("iam/ApplicationsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const one = Effect.map((rows: ReadonlyArray<ApplicationRow>) => Option.fromNullable(rows[0]))

    /** The application and its pending scope requests, in the caller's transaction; an app_id in use is ApplicationIdTaken. */
    const insert = (registration: ValidRegistration, secretDigest: string, at: Date): Effect.Effect<void, ApplicationIdTaken> =>
      Effect.gen(function*() {
        // In a savepoint of its own: a refused insert must not abort the caller's transaction.
        yield* sql.withTransaction(sql`
          insert into applications (app_id, name, secret_digest, app_scope, webhook_scope, consent_required, scope_version,
            callback_urls, owner_uuid, organization_id, created_at, secret_rotated_at)
          values (${registration.appId}, ${registration.name}, ${secretDigest}, ${JSON.stringify(registration.appScope)}::jsonb,
            ${JSON.stringify(registration.webhookScope)}::jsonb, ${registration.consentRequired}, 1,
            ${JSON.stringify(registration.callbackUrls)}::jsonb, ${registration.ownerUuid}, ${registration.organizationId}, ${at}, ${at})
        `).pipe(
          Effect.catchTag("SqlError", (error) =>
            violatedConstraint(error) === "applications_pkey"
              ? Effect.fail(new ApplicationIdTaken({ message: `An application already has the id ${JSON.stringify(registration.appId)}.` }))
              : Effect.die(error))
        )
        for (const scope of registration.pendingScopes) {
          yield* sql`
            insert into application_scope_requests (app_id, scope, requested_at, status)
            values (${registration.appId}, ${scope}, ${at}, 'pending')
          `.pipe(Effect.orDie)
        }
      })

    const find = (appId: string): Effect.Effect<Option.Option<ApplicationRow>> =>
      sql`select ${sql.literal(COLUMNS)} from applications where app_id = ${appId}`.pipe(
        Effect.flatMap(decodeApplications),
        Effect.orDie,
        one
      )

    /** The row locked until the caller's transaction ends: changes to one application's scopes are serialized. */
    const findForUpdate = (appId: string): Effect.Effect<Option.Option<ApplicationRow>> =>
      sql`select ${sql.literal(COLUMNS)} from applications where app_id = ${appId} for update`.pipe(
        Effect.flatMap(decodeApplications),
        Effect.orDie,
        one
      )

    const findMany = (appIds: ReadonlyArray<string>): Effect.Effect<ReadonlyArray<ApplicationRow>> =>
      appIds.length === 0
        ? Effect.succeed([])
        : sql`select ${sql.literal(COLUMNS)} from applications where ${sql.in("app_id", appIds)}`.pipe(
          Effect.flatMap(decodeApplications),
          Effect.orDie
        )

    const pendingScopes = (appId: string): Effect.Effect<ReadonlyArray<PendingScopeRow>> =>
      sql`
        select scope, requested_at from application_scope_requests
        where app_id = ${appId} and status = 'pending' order by requested_at, scope
      `.pipe(Effect.flatMap(decodePending), Effect.orDie)

    /** Applications with a pending scope request, by app_id after `after`. */
    const awaitingReview = (after: Option.Option<string>, limit: number): Effect.Effect<ReadonlyArray<ApplicationRow>> =>
      sql`
        select ${sql.literal(COLUMNS)} from applications a
        where exists (select 1 from application_scope_requests r where r.app_id = a.app_id and r.status = 'pending')
          and a.app_id > ${Option.getOrElse(after, () => "")}
        order by a.app_id limit ${limit}
      `.pipe(Effect.flatMap(decodeApplications), Effect.orDie)

    const setSecretDigest = (appId: string, digest: string, at: Date): Effect.Effect<void> =>
      sql`update applications set secret_digest = ${digest}, secret_rotated_at = ${at} where app_id = ${appId}`.pipe(
        Effect.asVoid,
        Effect.orDie
      )

    /** Records a platform admin's decision on pending requests; answers the scopes it decided (those that were pending). */
    const decideScopes = (
      appId: string,
      scopes: ReadonlyArray<string>,
      status: "approved" | "rejected",
      adminUuid: string,
      at: Date
    ): Effect.Effect<ReadonlyArray<string>> =>
      scopes.length === 0
        ? Effect.succeed([])
        : sql<{ scope: string }>`
          update application_scope_requests set status = ${status}, decided_by = ${adminUuid}, decided_at = ${at}
          where app_id = ${appId} and status = 'pending' and ${sql.in("scope", scopes)}
          returning scope
        `.pipe(Effect.orDie, Effect.map((rows) => rows.map((row) => row.scope)))

    /** A new app_scope: scope_version goes up by one. */
    const setAppScope = (appId: string, scopes: ReadonlyArray<ApplicationScope>): Effect.Effect<void> =>
      sql`
        update applications set app_scope = ${JSON.stringify(scopes)}::jsonb, scope_version = scope_version + 1
        where app_id = ${appId}
      `.pipe(Effect.asVoid, Effect.orDie)

    return { insert, find, findForUpdate, findMany, pendingScopes, awaitingReview, setSecretDigest, decideScopes, setAppScope } as const
  })
}) {}
