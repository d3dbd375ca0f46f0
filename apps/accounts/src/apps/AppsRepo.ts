import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Duration, Effect, Option, Schema } from "effect"
import { summaryJson } from "../accounts/AccountSummary.ts"
import { now } from "@platform/service"
import { type AppSource, type AppStatus, AppRow, AppStatsRow, type IdTokenSigningAlg } from "./AppRecord.ts"
import { decodeStoredSigninConfig } from "./signinConfig/index.ts"
import { defaultSigninConfig } from "./signinConfig/defaults.ts"
import type { SigninConfig } from "./signinConfig/SigninConfig.ts"
import { rowsDecoder } from "@platform/database"

const ACTIVE_WINDOW = Duration.days(30)

/**
 * An app's columns over `apps ap LEFT JOIN accounts o` (o the owner); with
 * `activeSince` ("30 days ago") also the record's member counts, which scan
 * memberships and are only read where `stats` is answered.
 */
const appSelect = (sql: SqlClient.SqlClient, activeSince: Date | null) =>
  sql`
    SELECT ap.app_id, ap.name, ap.description, ap.homepage_url, ap.logo_url, ap.logo_dark_url, ap.status, ap.source,
      ap.signin_config, ap.config_version, ap.id_token_signed_response_alg, ap.webhook_url, (ap.webhook_secret IS NOT NULL) AS webhook_secret_set,
      ap.created_at, ap.updated_at,
      CASE WHEN o.uuid IS NULL THEN NULL ELSE ${sql.literal(summaryJson("o"))} END AS owner
      ${activeSince === null ? sql`` : sql`,
      (SELECT count(*)::int FROM memberships m JOIN accounts a ON a.uuid = m.account_uuid
        WHERE m.app_id = ap.app_id AND m.status IN ('active', 'imported') AND a.status <> 'deleted') AS users,
      (SELECT count(*)::int FROM memberships m
        WHERE m.app_id = ap.app_id AND m.status = 'active' AND m.last_signin_at > ${activeSince}) AS active_last_30d,
      (SELECT count(*)::int FROM memberships m WHERE m.app_id = ap.app_id AND m.status = 'imported') AS imported_unclaimed`}
    FROM apps ap LEFT JOIN accounts o ON o.uuid = ap.owner_uuid
  `

/** Stored configs are read over today's defaults (a field added later reads as its default). */
const withStoredConfig = <R extends { readonly signin_config: unknown }>(row: R) =>
  Effect.map(decodeStoredSigninConfig(row.signin_config), (signin_config) => ({ ...row, signin_config }))
const decodeStoredApps = rowsDecoder(Schema.Struct({ ...AppRow.fields, signin_config: Schema.Unknown }))
const decodeStoredAppsWithStats = rowsDecoder(Schema.Struct({ ...AppStatsRow.fields, signin_config: Schema.Unknown }))
const decodeApps = (rows: unknown): Effect.Effect<ReadonlyArray<AppRow>> =>
  decodeStoredApps(rows).pipe(Effect.flatMap(Effect.forEach(withStoredConfig)), Effect.orDie)
const decodeAppsWithStats = (rows: unknown): Effect.Effect<ReadonlyArray<AppStatsRow>> =>
  decodeStoredAppsWithStats(rows).pipe(Effect.flatMap(Effect.forEach(withStoredConfig)), Effect.orDie)

/** The app's own idp secrets, each sealed at rest; absent when not set. */
const IdpSecrets = Schema.Struct({ client_secret: Schema.optional(Schema.String), private_key: Schema.optional(Schema.String) })
export type IdpSecrets = typeof IdpSecrets.Type

/** An app's sign-in setup as stored, read under a row lock to change it. */
const LockedSigninConfig = Schema.Struct({
  signin_config: Schema.Unknown,
  config_version: Schema.Number,
  idp_secrets: IdpSecrets
})
const decodeLockedConfig = rowsDecoder(LockedSigninConfig)

/** A new version of an app's sign-in setup. */
export interface SigninConfigChange {
  readonly version: number
  readonly config: SigninConfig
  readonly idpSecrets: IdpSecrets
  readonly changedBy: string | null
  readonly at: Date
}

/** Keyset position of the owned-apps list (newest first). */
export const OwnedPosition = Schema.Tuple(Schema.String, Schema.String)

/** What creating or syncing an app writes; the secret only as its SHA-256 digest. */
export interface AppWrite {
  readonly appId: string
  readonly name: string
  readonly description: string | null
  readonly homepageUrl: string | null
  readonly logoUrl: string | null
  readonly logoDarkUrl: string | null
  readonly ownerUuid: string | null
  readonly coauthorUuids: ReadonlyArray<string>
  readonly status: AppStatus
  readonly source: AppSource
  readonly secretHash: string | null
  /** How its id tokens are signed; null: EdDSA for a new app, unchanged for a synced one. */
  readonly idTokenSignedResponseAlg: IdTokenSigningAlg | null
}

/**
 * App records, their authors and their sign-in setup versions.
 *
 * Database failures: SqlError is a defect; the steps that run inside their caller's transaction
 * (`insert`, `lockSigninConfig`, `saveSigninConfig`) leave it to that caller.
 */
export class AppsRepo extends Effect.Service<AppsRepo>()("accounts/AppsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    type Where = (select: ReturnType<typeof appSelect>) => Effect.Effect<ReadonlyArray<object>, SqlError>

    const selectAppsWithStats = (where: Where) =>
      Effect.gen(function*() {
        const at = yield* now
        const select = appSelect(sql, new Date(at.getTime() - Duration.toMillis(ACTIVE_WINDOW)))
        return yield* where(select).pipe(Effect.orDie, Effect.flatMap(decodeAppsWithStats))
      })

    /** The app without its member counts: what flows, /authorize and provider callbacks read on every load. */
    const find = (appId: string): Effect.Effect<Option.Option<AppRow>> =>
      sql`${appSelect(sql, null)} WHERE ap.app_id = ${appId}`.pipe(
        Effect.orDie,
        Effect.flatMap(decodeApps),
        Effect.map((rows) => Option.fromNullable(rows[0]))
      )

    /** The app with the App record's member counts (GET /v1/apps/{app_id}, the sync's answer). */
    const findWithStats = (appId: string): Effect.Effect<Option.Option<AppStatsRow>> =>
      Effect.map(selectAppsWithStats((select) => sql`${select} WHERE ap.app_id = ${appId}`), (rows) => Option.fromNullable(rows[0]))

    /** What checking the app's credentials needs, read without the record's counts. */
    const credentialsOf = (appId: string) =>
      sql<{ readonly secret_hash: string | null; readonly status: AppStatus }>`
        SELECT secret_hash, status FROM apps WHERE app_id = ${appId}
      `.pipe(Effect.orDie, Effect.map((rows) => Option.fromNullable(rows[0])))

    const isAuthor = (appId: string, accountUuid: string): Effect.Effect<boolean> =>
      sql`SELECT 1 FROM app_authors WHERE app_id = ${appId} AND account_uuid = ${accountUuid}`.pipe(
        Effect.orDie,
        Effect.map((rows) => rows.length > 0)
      )

    /** Apps the account owns or co-authors, newest first, `limit + 1` rows after `after`. */
    const listAuthored = (accountUuid: string, limit: number, after: Option.Option<typeof OwnedPosition.Type>) =>
      selectAppsWithStats((select) => {
        const position = Option.match(after, {
          onNone: () => sql``,
          onSome: ([createdAt, appId]) => sql`AND (ap.created_at, ap.app_id) < (${new Date(createdAt)}, ${appId})`
        })
        return sql`
          ${select}
          WHERE ap.app_id IN (SELECT app_id FROM app_authors WHERE account_uuid = ${accountUuid}) ${position}
          ORDER BY ap.created_at DESC, ap.app_id DESC
          LIMIT ${limit + 1}
        `
      })

    const replaceAuthors = (appId: string, ownerUuid: string | null, coauthorUuids: ReadonlyArray<string>) =>
      Effect.gen(function*() {
        yield* sql`DELETE FROM app_authors WHERE app_id = ${appId}`
        const authors = [
          ...(ownerUuid === null ? [] : [{ app_id: appId, account_uuid: ownerUuid, role: "owner" }]),
          // Co-authors are a set: a repeated uuid, or the owner's, is one author.
          ...[...new Set(coauthorUuids)].filter((uuid) => uuid !== ownerUuid)
            .map((uuid) => ({ app_id: appId, account_uuid: uuid, role: "coauthor" }))
        ]
        if (authors.length > 0) yield* sql`INSERT INTO app_authors ${sql.insert(authors)}`
      })

    /**
     * Inside a transaction: a new app with the default sign-in setup (and the
     * redirect URIs and fields given) as version 1. False when the id is taken.
     */
    const insert = (app: AppWrite, config: Partial<SigninConfig>, at: Date): Effect.Effect<boolean, SqlError> =>
      Effect.gen(function*() {
        const signinConfig = { ...defaultSigninConfig, ...config }
        const inserted = yield* sql`
          INSERT INTO apps (app_id, name, description, homepage_url, logo_url, logo_dark_url, owner_uuid, status, source,
                            secret_hash, signin_config, config_version, id_token_signed_response_alg, created_at, updated_at)
          VALUES (${app.appId}, ${app.name}, ${app.description}, ${app.homepageUrl}, ${app.logoUrl}, ${app.logoDarkUrl},
                  ${app.ownerUuid}, ${app.status}, ${app.source}, ${app.secretHash}, ${JSON.stringify(signinConfig)}::jsonb,
                  1, ${app.idTokenSignedResponseAlg ?? "EdDSA"}, ${at}, ${at})
          ON CONFLICT (app_id) DO NOTHING
          RETURNING app_id
        `
        if (inserted.length === 0) return false
        yield* sql`
          INSERT INTO app_config_versions (app_id, version, signin_config, changed_by, changed_at)
          VALUES (${app.appId}, 1, ${JSON.stringify(signinConfig)}::jsonb, NULL, ${at})
        `
        yield* replaceAuthors(app.appId, app.ownerUuid, app.coauthorUuids)
        return true
      })

    /**
     * The registry's view of one of its apps, created or brought up to date
     * (never touching its sign-in setup, which its authors manage here). An id
     * held by an app of another source is not overwritten: false.
     */
    const syncFromRegistry = (app: AppWrite): Effect.Effect<{ readonly created: boolean } | undefined> =>
      sql.withTransaction(Effect.gen(function*() {
        const at = yield* now
        if (yield* insert(app, {}, at)) return { created: true }
        const updated = yield* sql`
          UPDATE apps SET name = ${app.name}, description = ${app.description}, homepage_url = ${app.homepageUrl},
            logo_url = ${app.logoUrl}, logo_dark_url = ${app.logoDarkUrl}, owner_uuid = ${app.ownerUuid},
            status = ${app.status}, secret_hash = COALESCE(${app.secretHash}, secret_hash),
            id_token_signed_response_alg = COALESCE(${app.idTokenSignedResponseAlg}, id_token_signed_response_alg),
            updated_at = ${at}
          WHERE app_id = ${app.appId} AND source = 'registry_app'
          RETURNING app_id
        `
        if (updated.length === 0) return undefined
        yield* replaceAuthors(app.appId, app.ownerUuid, app.coauthorUuids)
        return { created: false }
      })).pipe(Effect.orDie)

    /** Inside the caller's transaction: the app's sign-in setup, locked until the transaction ends; none for an unknown app. */
    const lockSigninConfig = (appId: string) =>
      sql`
        SELECT signin_config, config_version, idp_secrets FROM apps WHERE app_id = ${appId} FOR UPDATE
      `.pipe(Effect.flatMap(decodeLockedConfig), Effect.map((rows) => Option.fromNullable(rows[0])))

    /** Inside the caller's transaction: the app's new sign-in setup, kept as `version` in its history. */
    const saveSigninConfig = (appId: string, change: SigninConfigChange) =>
      Effect.gen(function*() {
        const config = JSON.stringify(change.config)
        yield* sql`
          UPDATE apps SET signin_config = ${config}::jsonb, config_version = ${change.version},
            idp_secrets = ${JSON.stringify(change.idpSecrets)}::jsonb, updated_at = ${change.at}
          WHERE app_id = ${appId}
        `
        yield* sql`
          INSERT INTO app_config_versions (app_id, version, signin_config, changed_by, changed_at)
          VALUES (${appId}, ${change.version}, ${config}::jsonb, ${change.changedBy}, ${change.at})
        `
      })

    /** The app's own idp secret as stored (sealed); none when it is not stored. */
    const sealedIdpSecret = (appId: string, field: keyof IdpSecrets): Effect.Effect<Option.Option<string>> =>
      sql<{ readonly sealed: string | null }>`
        SELECT idp_secrets->>${field} AS sealed FROM apps WHERE app_id = ${appId}
      `.pipe(Effect.orDie, Effect.map((rows) => Option.fromNullable(rows[0]?.sealed)))

    return {
      find,
      findWithStats,
      credentialsOf,
      isAuthor,
      listAuthored,
      insert,
      syncFromRegistry,
      lockSigninConfig,
      saveSigninConfig,
      sealedIdpSecret
    } as const
  })
}) {}
