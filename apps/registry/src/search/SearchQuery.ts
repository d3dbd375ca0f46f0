import { Effect, Option } from "effect"
import { type Target, TARGETS } from "../targets/Targets.ts"
import { InvalidQueryValue } from "./errors.ts"

export const SORTS = ["relevance", "rating", "installs", "name", "updated", "newest"] as const
export type Sort = typeof SORTS[number]

export const VISIBILITIES = ["public", "private"] as const
export const BOOLEANS = ["true", "false"] as const

export const MAX_LIMIT = 100
export const DEFAULT_LIMIT = 50
export const MAX_QUERY_LENGTH = 100
export const MAX_TAGS = 20

/** GET /v1/apps's query as it arrives: every value a string, each optional. */
export interface RawSearchQuery {
  readonly q?: string | undefined
  readonly tags?: string | undefined
  readonly target?: string | undefined
  readonly visibility?: string | undefined
  readonly mine?: string | undefined
  readonly sort?: string | undefined
  readonly limit?: string | undefined
  readonly offset?: string | undefined
}

/** A search, checked. */
export interface SearchQuery {
  /** The text searched for, trimmed and lowercased; none when absent or blank. */
  readonly text: Option.Option<string>
  /** Every one must be among an app's tags. */
  readonly tags: ReadonlyArray<string>
  readonly target: Option.Option<Target>
  readonly visibility: Option.Option<typeof VISIBILITIES[number]>
  /** Only the caller's own apps, drafts included. */
  readonly mine: boolean
  readonly sort: Sort
  readonly limit: number
  readonly offset: number
}

export const defaultSearch: SearchQuery = {
  text: Option.none(),
  tags: [],
  target: Option.none(),
  visibility: Option.none(),
  mine: false,
  sort: "relevance",
  limit: DEFAULT_LIMIT,
  offset: 0
}

const refused = (
  parameter: string,
  problem: string,
  range: { accepted?: ReadonlyArray<string>; minimum?: number; maximum?: number } = {}
) =>
  new InvalidQueryValue({
    message: `Query parameter ${parameter} ${problem}.`,
    ...(range.accepted === undefined ? {} : { hint: `Use one of: ${range.accepted.join(", ")}.` }),
    details: { parameter, problem, accepted: range.accepted ?? null, minimum: range.minimum ?? null, maximum: range.maximum ?? null }
  })

const oneOf = <const A extends ReadonlyArray<string>>(parameter: string, accepted: A, value: string | undefined) =>
  value === undefined
    ? Effect.succeed(Option.none<A[number]>())
    : accepted.includes(value)
    ? Effect.succeed(Option.some(value as A[number]))
    : Effect.fail(refused(parameter, `must be one of ${accepted.join(", ")}`, { accepted }))

const integer = (parameter: string, value: string | undefined, fallback: number, minimum: number, maximum?: number) => {
  if (value === undefined) return Effect.succeed(fallback)
  const number = /^\d{1,9}$/.test(value) ? Number(value) : Number.NaN
  const inRange = number >= minimum && (maximum === undefined || number <= maximum)
  return inRange
    ? Effect.succeed(number)
    : Effect.fail(refused(
      parameter,
      maximum === undefined ? `must be an integer of at least ${minimum}` : `must be an integer from ${minimum} to ${maximum}`,
      { minimum, ...(maximum === undefined ? {} : { maximum }) }
    ))
}

const commaList = (value: string | undefined) =>
  value === undefined ? [] : [...new Set(value.split(",").map((item) => item.trim()).filter((item) => item !== ""))]

/** Checks every parameter of spec 2's search; a bad value is 400 invalid_query naming the values taken. */
export const parseSearchQuery = (raw: RawSearchQuery): Effect.Effect<SearchQuery, InvalidQueryValue> =>
  Effect.gen(function*() {
    const text = raw.q?.trim().toLowerCase() ?? ""
    if (text.length > MAX_QUERY_LENGTH) {
      return yield* Effect.fail(refused("q", `must be at most ${MAX_QUERY_LENGTH} characters`))
    }
    const tags = commaList(raw.tags)
    if (tags.length > MAX_TAGS) return yield* Effect.fail(refused("tags", `must name at most ${MAX_TAGS} tags`))
    return {
      text: text === "" ? Option.none() : Option.some(text),
      tags,
      target: yield* oneOf("target", TARGETS, raw.target),
      visibility: yield* oneOf("visibility", VISIBILITIES, raw.visibility),
      mine: Option.getOrElse(yield* oneOf("mine", BOOLEANS, raw.mine), () => "false") === "true",
      sort: Option.getOrElse(yield* oneOf("sort", SORTS, raw.sort), () => "relevance" as const),
      limit: yield* integer("limit", raw.limit, DEFAULT_LIMIT, 1, MAX_LIMIT),
      offset: yield* integer("offset", raw.offset, 0, 0)
    }
  })
