import { ExpiringCache } from "@platform/service"
import { Clock, Duration, Effect, Option } from "effect"
import { type App, appOf } from "../apps/App.ts"
import { domainOf } from "../apps/AppAccess.ts"
import type { Caller } from "../auth/Caller.ts"
import { Unauthenticated } from "../errors.ts"
import type { SearchQuery } from "./SearchQuery.ts"
import { SearchRepo } from "./SearchRepo.ts"

/**
 * Answers are kept per process under the catalogue's version (CatalogueChangesMigration.ts): a change of
 * what search reads makes every kept answer unreachable at once. The lifetime bounds the one window the
 * version cannot close: a search that read the catalogue just before a change committed but the version
 * just after it (decisions.md, "Search answers kept").
 */
const KEPT_FOR = Duration.seconds(5)
const CACHED_ANSWERS = 5_000

interface SearchAnswer {
  readonly items: ReadonlyArray<App>
  readonly total: number
  readonly limit: number
  readonly offset: number
  readonly next_offset: number | null
  readonly sort: SearchQuery["sort"]
}

const signInForMine = new Unauthenticated({
  message: "mine=true lists the caller's own apps: it needs a signed-in account.",
  hint: "Send `Authorization: Bearer <access token>`, or leave mine out to search the catalogue."
})

/**
 * Spec 2's search of the catalogue: the apps the caller may see (published public ones; private ones
 * that admit the caller; with `mine`, the caller's own, drafts included), filtered and ranked in the
 * database so that pages are exact.
 */
export class Search extends Effect.Service<Search>()("registry/Search", {
  effect: Effect.gen(function*() {
    const repo = yield* SearchRepo
    const answers = new ExpiringCache<SearchAnswer>(CACHED_ANSWERS)

    const search = (query: SearchQuery, caller: Option.Option<Caller>) =>
      Effect.gen(function*() {
        if (query.mine && Option.isNone(caller)) return yield* Effect.fail(signInForMine)
        const viewer = Option.map(caller, ({ uuid, verifiedEmails }) => ({
          uuid,
          domains: [...new Set(verifiedEmails.map(domainOf))]
        }))
        const version = yield* repo.catalogueVersion
        const key = JSON.stringify([version, Option.getOrNull(viewer), Option.getOrNull(query.text), query.tags, query.target, query.visibility, query.mine, query.sort, query.limit, query.offset])
        const nowMillis = yield* Clock.currentTimeMillis
        const kept = answers.get(key, nowMillis)
        if (kept !== undefined) return kept
        const { rows, total } = yield* repo.page(query, viewer)
        const answer: SearchAnswer = {
          items: rows.map((row) => appOf(row, row.author)),
          total,
          limit: query.limit,
          offset: query.offset,
          next_offset: query.offset + query.limit < total ? query.offset + query.limit : null,
          sort: query.sort
        }
        answers.set(key, answer, nowMillis + Duration.toMillis(KEPT_FOR))
        return answer
      })

    return { search }
  }),
  dependencies: [SearchRepo.Default]
}) {}
