import { Effect, Option } from "effect"
import { appOf } from "../apps/App.ts"
import { domainOf } from "../apps/AppAccess.ts"
import type { Caller } from "../auth/Caller.ts"
import { Unauthenticated } from "../errors.ts"
import type { SearchQuery } from "./SearchQuery.ts"
import { SearchRepo } from "./SearchRepo.ts"

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

    const search = (query: SearchQuery, caller: Option.Option<Caller>) =>
      Effect.gen(function*() {
        if (query.mine && Option.isNone(caller)) return yield* Effect.fail(signInForMine)
        const viewer = Option.map(caller, ({ uuid, verifiedEmails }) => ({
          uuid,
          domains: [...new Set(verifiedEmails.map(domainOf))]
        }))
        const { rows, total } = yield* repo.page(query, viewer)
        return {
          items: rows.map((row) => appOf(row, row.author)),
          total,
          limit: query.limit,
          offset: query.offset,
          next_offset: query.offset + query.limit < total ? query.offset + query.limit : null,
          sort: query.sort
        }
      })

    return { search }
  }),
  dependencies: [SearchRepo.Default]
}) {}
