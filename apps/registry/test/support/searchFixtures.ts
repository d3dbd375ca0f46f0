import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { createHash, randomUUID } from "node:crypto"

/**
 * Catalogue rows written straight into the registry's tables, for tests of what reads them (search, discovery,
 * MCP) without going through the endpoints that create them.
 */
export interface AppFixture {
  readonly app_id: string
  readonly name: string
  readonly description?: string
  readonly tags?: ReadonlyArray<string>
  readonly status?: "draft" | "published"
  readonly visibility?: "public" | "private"
  readonly domains?: ReadonlyArray<string>
  readonly account_ids?: ReadonlyArray<string>
  /** uuids; the first is the administrator (default: a new uuid). */
  readonly authors?: ReadonlyArray<string>
  readonly rating?: number | null
  readonly installs?: number
  /** Days after 2026-01-01 the app was created, updated and published (default 0). */
  readonly createdDay?: number
  readonly updatedDay?: number
}

const day = (days: number) => new Date(Date.UTC(2026, 0, 1) + days * 86_400_000)

export const insertApp = (app: AppFixture) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const authors = app.authors ?? [randomUUID()]
    const created = day(app.createdDay ?? 0)
    const status = app.status ?? "published"
    yield* sql`
      insert into apps (
        app_id, name, description, tags, status, visibility, domains, account_ids, administrator_uuid,
        rating, installs, created_by, created_at, updated_at, published_at
      ) values (
        ${app.app_id}, ${app.name}, ${app.description ?? null}, ${app.tags ?? []}::text[], ${status},
        ${app.visibility ?? "public"}, ${app.domains ?? []}::text[], ${app.account_ids ?? []}::text[], ${authors[0]!},
        ${app.rating ?? null}, ${app.installs ?? 0}, ${authors[0]!}, ${created}, ${day(app.updatedDay ?? app.createdDay ?? 0)},
        ${status === "published" ? created : null}
      )
    `
    for (const uuid of authors) {
      yield* sql`
        insert into app_authors (app_id, account_uuid, account_id, display_name, joined_at)
        values (${app.app_id}, ${uuid}, null, ${"Author"}, ${created})
      `
    }
  }).pipe(Effect.orDie)

export interface ReleaseFixture {
  readonly app_id: string
  readonly version: string
  readonly targets: ReadonlyArray<string>
  readonly channel?: "development" | "production"
  readonly withdrawn?: boolean
}

/** A release with one package per target (tiny made-up bytes); returns the release id and its packages' ids by target. */
export const insertRelease = (release: ReleaseFixture) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const releaseId = `rel_${randomUUID()}`
    const at = day(30)
    const packages: Record<string, string> = {}
    for (const target of release.targets) {
      const id = `pkg_${randomUUID()}`
      const bytes = Buffer.from(`${release.app_id} ${release.version} ${target}`)
      packages[target] = id
      yield* sql`
        insert into packages (id, app_id, target, sha256, size, command, validation, bytes, uploaded_by, created_at)
        values (
          ${id}, ${release.app_id}, ${target}, ${createHash("sha256").update(bytes).digest("hex")}, ${bytes.length},
          ${release.app_id}, ${"[]"}::jsonb, ${bytes}, ${"fixture"}, ${at}
        )
      `
    }
    yield* sql`
      insert into releases (id, app_id, channel, version, sequence, created_by, created_at, withdrawn_at, withdrawn_by, withdrawal_reason)
      values (
        ${releaseId}, ${release.app_id}, ${release.channel ?? "production"}, ${release.version}, ${1}, ${"fixture"}, ${at},
        ${release.withdrawn === true ? at : null}, ${release.withdrawn === true ? "fixture" : null},
        ${release.withdrawn === true ? "withdrawn by the fixture" : null}
      )
    `
    for (const [target, id] of Object.entries(packages)) {
      yield* sql`insert into release_packages (release_id, package_id, target) values (${releaseId}, ${id}, ${target})`
    }
    return { releaseId, packages }
  }).pipe(Effect.orDie)
