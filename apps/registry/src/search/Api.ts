import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { App } from "../apps/App.ts"
import { OptionalBearer } from "../auth/Bearer.ts"
import { registryError, Unauthenticated } from "../errors.ts"
import { TARGETS } from "../targets/Targets.ts"
import { InvalidQueryValue } from "./errors.ts"
import { BOOLEANS, DEFAULT_LIMIT, MAX_LIMIT, MAX_QUERY_LENGTH, MAX_TAGS, SORTS, VISIBILITIES } from "./SearchQuery.ts"

/** A query parameter taken as text and checked by the handler, so that a bad value is answered with the values taken. */
const text = (description: string, accepted?: ReadonlyArray<string>) =>
  Schema.optional(
    Schema.String.annotations({
      description,
      ...(accepted === undefined ? {} : { jsonSchema: { type: "string", enum: accepted, description } })
    })
  )

export const SearchParams = Schema.Struct({
  q: text(`Text to find in app ids and names (at most ${MAX_QUERY_LENGTH} characters, case-insensitive)`),
  tags: text(`Comma-separated tags, every one required (at most ${MAX_TAGS})`),
  target: text("Only apps with a production release (not withdrawn) that has a package for this target", TARGETS),
  visibility: text("Only public or only private apps", VISIBILITIES),
  mine: text("true: only the caller's own apps, drafts included (needs a bearer)", BOOLEANS),
  sort: text("Order of the results (default relevance)", SORTS),
  limit: text(`Results per page, 1 to ${MAX_LIMIT} (default ${DEFAULT_LIMIT})`),
  offset: text("Results to skip, 0 or more (default 0)")
})

export const AppSearchPage = Schema.Struct({
  items: Schema.Array(App),
  total: Schema.Number.annotations({ description: "How many apps the search finds in all" }),
  limit: Schema.Number,
  offset: Schema.Number,
  next_offset: Schema.NullOr(Schema.Number).annotations({ description: "The offset of the next page; null on the last page" }),
  sort: Schema.Literal(...SORTS)
}).annotations({ identifier: "AppSearchPage" })

export class SearchApi extends HttpApiGroup.make("search")
  .add(
    HttpApiEndpoint.get("search", "/v1/apps")
      .setUrlParams(SearchParams)
      .addSuccess(AppSearchPage)
      .addError(registryError(InvalidQueryValue))
      .addError(registryError(Unauthenticated))
      .annotate(
        OpenApi.Description,
        "Searches the catalogue: published public apps, private apps that admit the caller (their accounts or a verified email's " +
          "domain) and the caller's own; with mine=true only the caller's own apps, drafts included. Relevance ranks an exact id " +
          "or name first, then a prefix, then a substring, then a typo (trigram similarity or a few edits of the id); rating, " +
          "then installs, break ties. A bad value is 400 invalid_query naming the values taken."
      )
  )
  .middleware(OptionalBearer)
  .annotate(OpenApi.Title, "Search")
{}
