import { Effect, Layer } from "effect"
import { RegistryApi } from "../api.ts"
import { MaybeCaller } from "../auth/Caller.ts"
import { Search } from "./Search.ts"
import { parseSearchQuery } from "./SearchQuery.ts"
import { compiledGroup } from "@platform/service"

export const SearchLive = compiledGroup(RegistryApi, "search", (handlers) =>
  Effect.map(Search, (search) =>
    handlers.handle("search", ({ urlParams }) =>
      Effect.flatMap(
        Effect.zip(parseSearchQuery(urlParams), MaybeCaller),
        ([query, caller]) => search.search(query, caller)
      )))).pipe(Layer.provide(Search.Default))
