import { SqlClient } from "@effect/sql"
import type { CarbonIdentity, SiliconIdentity } from "@platform/accounts-identity-api"
import { fetchAnswer } from "@platform/testkit"
import { Effect } from "effect"
import { createHash, randomBytes, randomUUID } from "node:crypto"
import { gzipSync } from "node:zlib"
import { RegistryUnderTest } from "./RegistryTest.ts"

/**
 * Catalogue rows written straight into the registry's database, for tests of areas that build on apps and accepted
 * packages (creating them goes through other areas' routes and the sandbox).
 */

type Identity = CarbonIdentity | SiliconIdentity

export interface AppFixture {
  readonly status?: "draft" | "published"
  readonly visibility?: "public" | "private"
  readonly accountIds?: ReadonlyArray<string>
}

/** A new app administered by `administrator` (its only author); its id. */
export const insertApp = (administrator: Identity, fixture: AppFixture = {}) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const appId = `app-${randomUUID().slice(0, 8)}`
    const at = new Date()
    const status = fixture.status ?? "published"
    yield* sql`
      insert into apps (app_id, name, status, visibility, account_ids, administrator_uuid, created_by, created_at, updated_at, published_at)
      values (${appId}, ${`App ${appId}`}, ${status}, ${fixture.visibility ?? "public"}, array(select jsonb_array_elements_text(${JSON.stringify(fixture.accountIds ?? [])}::jsonb)),
        ${administrator.uuid}, ${administrator.uuid}, ${at}, ${at}, ${status === "published" ? at : null})
    `
    yield* addAuthor(appId, administrator)
    return appId
  }).pipe(Effect.orDie)

export const addAuthor = (appId: string, identity: Identity) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql`
      insert into app_authors (app_id, account_uuid, account_id, display_name, joined_at)
      values (${appId}, ${identity.uuid}, ${identity.id}, ${identity.display_name}, ${new Date()})
    `).pipe(Effect.orDie)

export interface PackageFixture {
  readonly id: string
  readonly target: string
  readonly sha256: string
  readonly size: number
  readonly bytes: Uint8Array
}

/** An accepted package of the app for `target`: a gzip of random bytes, optionally with an install script. */
export const insertPackage = (
  appId: string,
  target: string,
  installScript: { readonly path: string; readonly sha256: string; readonly size: number } | null = null
) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const bytes = gzipSync(randomBytes(2048))
    const item: PackageFixture = {
      id: `pkg_${randomUUID().replaceAll("-", "")}`,
      target,
      sha256: createHash("sha256").update(bytes).digest("hex"),
      size: bytes.length,
      bytes
    }
    yield* sql`
      insert into packages (id, app_id, target, sha256, size, command, validation, install_script, bytes, uploaded_by, created_at)
      values (${item.id}, ${appId}, ${target}, ${item.sha256}, ${item.size}, 'app', '[]'::jsonb,
        ${installScript === null ? null : JSON.stringify(installScript)}::jsonb, ${bytes}, 'fixture', ${new Date()})
    `
    return item
  }).pipe(Effect.orDie)

/** A request to the registry under test, read whole (JSON body parsed). */
export const call = (
  method: string,
  path: string,
  options: { readonly headers?: Record<string, string>; readonly body?: unknown } = {}
) =>
  Effect.flatMap(RegistryUnderTest, ({ url }) =>
    Effect.promise(() =>
      fetchAnswer(`${url}${path}`, {
        method,
        headers: { ...(options.body === undefined ? {} : { "content-type": "application/json" }), ...options.headers },
        ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) })
      })
    ))
