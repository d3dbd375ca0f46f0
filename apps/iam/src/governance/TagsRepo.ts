import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import type { Tag } from "./Governance.ts"

interface TagRow {
  readonly id: string
  readonly organization_id: string
  readonly name: string
  readonly description: string | null
  readonly created_at: Date
  readonly updated_at: Date
}

const toTag = (row: TagRow): Tag => ({
  id: row.id,
  organization_id: row.organization_id,
  name: row.name,
  description: row.description,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString()
})

/** Names compare without regard to case. */
export const nameKey = (name: string) => name.toLowerCase()

/** An organization's tags. */
export class TagsRepo extends Effect.Service<TagsRepo>()("iam/TagsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const select = sql`select id, organization_id, name, description, created_at, updated_at from organization_tags`
    const one = (rows: ReadonlyArray<TagRow>) => Option.map(Option.fromNullable(rows[0]), toTag)
    return {
      listOf: (organizationId: string) =>
        sql<TagRow>`${select} where organization_id = ${organizationId} order by name_key, id`.pipe(
          Effect.map((rows) => rows.map(toTag)),
          Effect.orDie
        ),
      find: (organizationId: string, id: string) =>
        sql<TagRow>`${select} where organization_id = ${organizationId} and id = ${id}`.pipe(Effect.map(one), Effect.orDie),
      findByName: (organizationId: string, name: string) =>
        sql<TagRow>`${select} where organization_id = ${organizationId} and name_key = ${nameKey(name)}`.pipe(
          Effect.map(one),
          Effect.orDie
        ),
      countOf: (organizationId: string) =>
        sql<{ readonly count: number }>`select count(*)::int as count from organization_tags where organization_id = ${organizationId}`.pipe(
          Effect.map((rows) => rows[0]?.count ?? 0),
          Effect.orDie
        ),
      /** Which of `ids` are not tags of the organization. */
      unknownOf: (organizationId: string, ids: ReadonlyArray<string>) =>
        ids.length === 0 ? Effect.succeed([] as ReadonlyArray<string>) : sql<{ readonly id: string }>`
          select id from organization_tags where organization_id = ${organizationId} and ${sql.in("id", ids)}
        `.pipe(
          Effect.map((rows) => ids.filter((id) => !rows.some((row) => row.id === id))),
          Effect.orDie
        ),
      insert: (tag: Tag, createdBy: string) =>
        sql`
          insert into organization_tags (id, organization_id, name, name_key, description, created_by, created_at, updated_at)
          values (${tag.id}, ${tag.organization_id}, ${tag.name}, ${nameKey(tag.name)}, ${tag.description}, ${createdBy},
            ${new Date(tag.created_at)}, ${new Date(tag.updated_at)})
        `.pipe(Effect.asVoid, Effect.orDie),
      update: (tag: Tag) =>
        sql`
          update organization_tags set name = ${tag.name}, name_key = ${nameKey(tag.name)}, description = ${tag.description},
            updated_at = ${new Date(tag.updated_at)}
          where id = ${tag.id}
        `.pipe(Effect.asVoid, Effect.orDie)
    }
  })
}) {}
