import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { rowsDecoder, violatedConstraint } from "@platform/database"
import { Effect, Option, Schema } from "effect"
import { foldSql } from "./AppId.ts"
import { AppIdTaken } from "./errors.ts"

const decodeIds = rowsDecoder(Schema.Struct({ app_id: Schema.String }))
const decodeFlag = rowsDecoder(Schema.Struct({ flag: Schema.Boolean }))
const decodeSecret = rowsDecoder(Schema.Struct({ app_secret_sha256: Schema.NullOr(Schema.String) }))

export interface NewApp {
  readonly appId: string
  readonly name: string
  readonly description: string | null
  readonly logo: string | null
  readonly creatorUuid: string
  readonly secretSha256: string
  readonly at: Date
}

/** What PATCH writes: every author-editable field of the app, as it is after the patch. */
export interface AppDetails {
  readonly name: string
  readonly description: string | null
  readonly logo: string | null
  readonly banner: string | null
  readonly carousel: ReadonlyArray<unknown>
  readonly links: unknown
  readonly tags: ReadonlyArray<string>
  readonly setup_step: number
}

const textArray = (values: ReadonlyArray<string>) => JSON.stringify(values)

/** The apps area's writes and reads of `apps` (who may see one: AppAccessRepo). */
export class AppsRepo extends Effect.Service<AppsRepo>()("registry/AppsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const flag = (statement: Effect.Effect<ReadonlyArray<unknown>, SqlError>) =>
      statement.pipe(Effect.flatMap(decodeFlag), Effect.map((rows) => rows[0]?.flag === true), Effect.orDie)

    return {
      exists: (appId: string) => flag(sql`select exists (select 1 from apps where app_id = ${appId}) as flag`),

      /** Published public apps whose id folds to the same as `appId` (itself excluded), at most 10. */
      lookAlikes: (appId: string) =>
        sql.unsafe(
          `select app_id from apps where app_id_fold = ${foldSql("$1")} and app_id <> $1
           and status = 'published' and visibility = 'public' order by app_id limit 10`,
          [appId]
        ).pipe(Effect.flatMap(decodeIds), Effect.map((rows) => rows.map((row) => row.app_id)), Effect.orDie),

      /** A new draft app administered by its creator; an id already held is AppIdTaken (in a savepoint: the transaction survives). */
      insert: (app: NewApp) =>
        sql.withTransaction(sql`
          insert into apps (app_id, name, description, logo, administrator_uuid, created_by, created_at, updated_at, app_secret_sha256)
          values (${app.appId}, ${app.name}, ${app.description}, ${app.logo}, ${app.creatorUuid}, ${app.creatorUuid},
            ${app.at}, ${app.at}, ${app.secretSha256})
        `).pipe(
          Effect.asVoid,
          Effect.catchAll((error) =>
            violatedConstraint(error) === "apps_pkey"
              ? Effect.fail(
                new AppIdTaken({
                  message: `The app id ${app.appId} is taken.`,
                  hint: "Choose another id; GET /v1/apps/availability/{app_id} checks one."
                })
              )
              : Effect.die(error)
          )
        ),

      writeDetails: (appId: string, details: AppDetails, at: Date) =>
        sql`
          update apps set name = ${details.name}, description = ${details.description}, logo = ${details.logo},
            banner = ${details.banner}, carousel = ${JSON.stringify(details.carousel)}::jsonb,
            links = ${JSON.stringify(details.links)}::jsonb,
            tags = array(select jsonb_array_elements_text(${textArray(details.tags)}::jsonb)),
            setup_step = ${details.setup_step}, updated_at = ${at}
          where app_id = ${appId}
        `.pipe(Effect.asVoid, Effect.orDie),

      writeAccess: (
        appId: string,
        access: { readonly visibility: string; readonly domains: ReadonlyArray<string>; readonly accountIds: ReadonlyArray<string> },
        at: Date
      ) =>
        sql`
          update apps set visibility = ${access.visibility},
            domains = array(select jsonb_array_elements_text(${textArray(access.domains)}::jsonb)),
            account_ids = array(select jsonb_array_elements_text(${textArray(access.accountIds)}::jsonb)),
            updated_at = ${at}
          where app_id = ${appId}
        `.pipe(Effect.asVoid, Effect.orDie),

      publish: (appId: string, at: Date) =>
        sql`update apps set status = 'published', published_at = ${at}, updated_at = ${at} where app_id = ${appId}`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),

      setSecret: (appId: string, secretSha256: string, at: Date) =>
        sql`update apps set app_secret_sha256 = ${secretSha256}, updated_at = ${at} where app_id = ${appId}`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),

      setAdministrator: (appId: string, uuid: string, at: Date) =>
        sql`update apps set administrator_uuid = ${uuid}, updated_at = ${at} where app_id = ${appId}`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),

      secretOf: (appId: string) =>
        sql`select app_secret_sha256 from apps where app_id = ${appId}`.pipe(
          Effect.flatMap(decodeSecret),
          Effect.map((rows) => Option.fromNullable(rows[0]?.app_secret_sha256)),
          Effect.orDie
        ),

      /** Whether a release that is not withdrawn holds at least one of the app's (accepted) packages. */
      hasPackagedRelease: (appId: string) =>
        flag(sql`
          select exists (
            select 1 from releases r join release_packages rp on rp.release_id = r.id
            where r.app_id = ${appId} and r.withdrawn_at is null
          ) as flag
        `)
    }
  })
}) {}
