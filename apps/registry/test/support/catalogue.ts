import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { RegistryUnderTest } from "./RegistryTest.ts"

export interface Answer {
  readonly status: number
  readonly headers: Headers
  readonly body: any
}

/** One request to the registry under test, its JSON answer read. */
export const call = (
  method: string,
  path: string,
  options: { readonly headers?: Record<string, string>; readonly body?: unknown } = {}
): Effect.Effect<Answer, never, RegistryUnderTest> =>
  Effect.flatMap(RegistryUnderTest, ({ url }) =>
    Effect.promise(async () => {
      const response = await fetch(`${url}${path}`, {
        method,
        headers: { ...(options.body === undefined ? {} : { "content-type": "application/json" }), ...options.headers },
        ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) })
      })
      const text = await response.text()
      return { status: response.status, headers: response.headers, body: text === "" ? null : JSON.parse(text) }
    }))

let serial = 0
/** A fresh valid app id with this stem. */
export const newAppId = (stem = "app") => `${stem}-${Date.now().toString(36)}${serial++}`

/** What the packages and releases areas would leave: an accepted package of the app in a development release. */
export const packagedRelease = (appId: string, uploadedBy: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const packageId = `pkg_${randomUUID().replaceAll("-", "")}`
    const releaseId = `rel_${randomUUID().replaceAll("-", "")}`
    const at = new Date()
    yield* sql`
      insert into packages (id, app_id, target, sha256, size, command, validation, bytes, uploaded_by, created_at)
      values (${packageId}, ${appId}, 'linux-x64', ${"0".repeat(64)}, 3, 'app', '[]'::jsonb, ${Buffer.from("abc")}, ${uploadedBy}, ${at})
    `
    yield* sql`
      insert into releases (id, app_id, channel, version, sequence, created_by, created_at)
      values (${releaseId}, ${appId}, 'development', '1.0.0', 1, ${uploadedBy}, ${at})
    `
    yield* sql`insert into release_packages (release_id, package_id, target) values (${releaseId}, ${packageId}, 'linux-x64')`
    return { packageId, releaseId }
  }).pipe(Effect.orDie)

export const DESCRIPTION = "A notes app for people and agents. ".repeat(7).trim()


/**
 * The catalogue written directly through SQL, for tests of areas built beside the apps endpoints:
 * an app with its authors, installs, and what the history holds.
 */

export interface AuthorIdentity {
  readonly uuid: string
  readonly id: string | null
  readonly display_name: string
}

/** A draft app whose authors are these accounts, the first one its administrator. */
export const insertApp = (authors: ReadonlyArray<AuthorIdentity>, name = "Test app") =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const appId = `test-${randomUUID().slice(0, 8)}`
    const at = new Date()
    const administrator = authors[0]!
    yield* sql`
      insert into apps (app_id, name, administrator_uuid, created_by, created_at, updated_at)
      values (${appId}, ${name}, ${administrator.uuid}, ${administrator.uuid}, ${at}, ${at})
    `
    for (const author of authors) {
      yield* sql`
        insert into app_authors (app_id, account_uuid, account_id, display_name, joined_at)
        values (${appId}, ${author.uuid}, ${author.id}, ${author.display_name}, ${at})
      `
    }
    return appId
  }).pipe(Effect.orDie)

/** The app's history, oldest first. */
export const historyOf = (appId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ readonly kind: string; readonly actor_uuid: string | null; readonly data: any }>`
      select kind, actor_uuid, data from app_history where app_id = ${appId} order by at, id
    `).pipe(Effect.orDie)

/**
 * Completed installs of a new app, one per entry: for each target a package and a release to install it from
 * (the rows the installs endpoint writes); `account` null for an anonymous install.
 */
export const insertInstalls = (installs: ReadonlyArray<{ readonly target: string; readonly account: string | null }>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const owner = { uuid: randomUUID(), id: null, display_name: "Installs" }
    const appId = yield* insertApp([owner])
    const at = new Date()
    const releaseId = `rel_${randomUUID().replaceAll("-", "")}`
    yield* sql`
      insert into releases (id, app_id, channel, version, sequence, created_by, created_at)
      values (${releaseId}, ${appId}, 'production', '1.0.0', 1, ${owner.uuid}, ${at})
    `
    const packages = new Map<string, string>()
    for (const target of new Set(installs.map((install) => install.target))) {
      const packageId = `pkg_${randomUUID().replaceAll("-", "")}`
      packages.set(target, packageId)
      yield* sql`
        insert into packages (id, app_id, target, sha256, size, command, validation, bytes, uploaded_by, created_at)
        values (${packageId}, ${appId}, ${target}, ${"0".repeat(64)}, 1, 'bin/tool', '[]'::jsonb, ${new Uint8Array([0])}, ${owner.uuid}, ${at})
      `
      yield* sql`insert into release_packages (release_id, package_id, target) values (${releaseId}, ${packageId}, ${target})`
    }
    for (const install of installs) {
      yield* sql`
        insert into installs (id, app_id, release_id, package_id, target, account_uuid, created_at)
        values (${`ins_${randomUUID()}`}, ${appId}, ${releaseId}, ${packages.get(install.target)!}, ${install.target}, ${install.account}, ${at})
      `
    }
    return appId
  }).pipe(Effect.orDie)
