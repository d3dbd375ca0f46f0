import { SqlClient } from "@effect/sql"
import { columnsOf, rowsDecoder } from "@platform/database"
import { Effect, Option, Schema } from "effect"
import { AppRow } from "../apps/AppRow.ts"
import type { SearchQuery } from "./SearchQuery.ts"

/** Who is looking: the account and the domains of its verified emails (a private app may admit a domain). */
export interface Viewer {
  readonly uuid: string
  readonly domains: ReadonlyArray<string>
}

const FoundRow = Schema.Struct({
  ...AppRow.fields,
  author: Schema.Boolean,
  total: Schema.Union(Schema.Number, Schema.NumberFromString)
})
const decodeFound = rowsDecoder(FoundRow)
const decodeCount = rowsDecoder(Schema.Struct({ total: Schema.Union(Schema.Number, Schema.NumberFromString) }))
const APP_COLUMNS = columnsOf(AppRow.fields, "a")
const decodeVersion = rowsDecoder(Schema.Struct({ last_value: Schema.Union(Schema.String, Schema.Number), is_called: Schema.Boolean }))

/** LIKE's wildcards and its escape character, taken literally. */
const literalLike = (text: string) => text.replace(/[\\%_]/g, (character) => `\\${character}`)

/**
 * How many edits still count as a typo of an app id: none below 4 characters (too many short ids
 * would match), 1 up to 7, 2 from 8.
 */
export const typoEdits = (text: string): number => (text.length < 4 ? 0 : text.length < 8 ? 1 : 2)

/** The catalogue as search reads it: one statement for a page and its total. */
export class SearchRepo extends Effect.Service<SearchRepo>()("registry/SearchRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /** Published apps the viewer may see (public, or private and admitting them, or theirs); with `mine`, their own, drafts included. */
    const visibleTo = (viewer: Option.Option<Viewer>, mine: boolean) => {
      const authorOf = (uuid: string) => sql`exists (select 1 from app_authors au where au.app_id = a.app_id and au.account_uuid = ${uuid})`
      if (Option.isNone(viewer)) return sql`a.status = 'published' and a.visibility = 'public'`
      const { domains, uuid } = viewer.value
      if (mine) return authorOf(uuid)
      return sql`a.status = 'published' and (
        a.visibility = 'public' or a.account_ids @> ${[uuid]}::text[] or a.domains && ${domains}::text[] or ${authorOf(uuid)}
      )`
    }

    /**
     * An app id or name matching the text: as a substring, by trigram similarity (both through the trigram
     * indexes), or within a few edits of the id (a scan of the ids, cheap, kept apart so that the rest can use the indexes).
     */
    const matching = (text: string) => {
      const substring = `%${literalLike(text)}%`
      const edits = typoEdits(text)
      return sql`a.app_id in (
        select app_id from apps
        where app_id like ${substring} or lower(name) like ${substring} or app_id % ${text} or ${text} <% lower(name)
        ${edits === 0 ? sql`` : sql`union all select app_id from apps where levenshtein_less_equal(app_id, ${text}, ${edits}) <= ${edits}`}
      )`
    }

    /** 0 exact id or name, 1 prefix, 2 substring, 3 typo (spec 2's ranking). */
    const tierOf = (text: string) => {
      const prefix = `${literalLike(text)}%`
      const substring = `%${literalLike(text)}%`
      return sql`case
        when a.app_id = ${text} or lower(a.name) = ${text} then 0
        when a.app_id like ${prefix} or lower(a.name) like ${prefix} then 1
        when a.app_id like ${substring} or lower(a.name) like ${substring} then 2
        else 3
      end`
    }

    const byRating = sql`a.rating desc nulls last, a.installs desc, a.app_id`
    const orderOf = (query: SearchQuery) => {
      switch (query.sort) {
        case "relevance":
          return Option.match(query.text, { onNone: () => byRating, onSome: (text) => sql`${tierOf(text)}, ${byRating}` })
        case "rating":
          return byRating
        case "installs":
          return sql`a.installs desc, a.rating desc nulls last, a.app_id`
        case "name":
          return sql`lower(a.name), a.app_id`
        case "updated":
          return sql`a.updated_at desc, a.app_id`
        case "newest":
          return sql`coalesce(a.published_at, a.created_at) desc, a.app_id`
      }
    }

    const conditions = (query: SearchQuery, viewer: Option.Option<Viewer>) =>
      sql.and([
        visibleTo(viewer, query.mine),
        ...Option.toArray(Option.map(query.text, matching)),
        ...(query.tags.length === 0 ? [] : [sql`a.tags @> ${query.tags}::text[]`]),
        ...Option.toArray(Option.map(query.visibility, (visibility) => sql`a.visibility = ${visibility}`)),
        ...Option.toArray(Option.map(query.target, (target) =>
          sql`exists (
            select 1 from releases r join release_packages rp on rp.release_id = r.id
            where r.app_id = a.app_id and r.channel = 'production' and r.withdrawn_at is null and rp.target = ${target}
          )`))
      ])

    /** A page of the apps the query finds, in its order, each with whether the viewer is one of its authors, and how many there are in all. */
    const page = (query: SearchQuery, viewer: Option.Option<Viewer>) =>
      Effect.gen(function*() {
        const where = conditions(query, viewer)
        const author = Option.match(viewer, {
          onNone: () => sql`false`,
          onSome: ({ uuid }) => sql`exists (select 1 from app_authors au where au.app_id = a.app_id and au.account_uuid = ${uuid})`
        })
        const rows = yield* sql`
          select ${sql.literal(APP_COLUMNS)}, ${author} as author, count(*) over () as total
          from apps a where ${where}
          order by ${orderOf(query)}
          limit ${query.limit} offset ${query.offset}
        `.pipe(Effect.flatMap(decodeFound))
        // Past the last page no row carries the total: count on its own.
        const total = rows[0]?.total ??
          (query.offset === 0 ? 0 : (yield* sql`select count(*) as total from apps a where ${where}`.pipe(Effect.flatMap(decodeCount)))[0]?.total ?? 0)
        return { rows, total }
      }).pipe(Effect.orDie)

    /** Where the catalogue stands: moves at every committed change of what search reads. */
    const catalogueVersion = sql`select last_value, is_called from catalogue_changes`.pipe(
      Effect.flatMap(decodeVersion),
      Effect.map((rows) => rows[0] === undefined ? "0" : `${rows[0].last_value}:${rows[0].is_called}`),
      Effect.orDie
    )

    return { page, catalogueVersion }
  })
}) {}
