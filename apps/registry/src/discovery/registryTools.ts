import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js"
import { type ApiErrorInstance, envelopeOf } from "@platform/http"
import { Effect, Option, Runtime, Schema } from "effect"
import { App, appOf } from "../apps/App.ts"
import { AppAccess } from "../apps/AppAccess.ts"
import { AppSearchPage } from "../search/Api.ts"
import { Search } from "../search/Search.ts"
import { parseSearchQuery } from "../search/SearchQuery.ts"
import type { RegistryTools } from "./McpTools.ts"
import { ReleaseResolver } from "./ReleaseResolver.ts"

const succeeded = (value: unknown): CallToolResult => ({
  content: [{ type: "text", text: JSON.stringify(value) }],
  ...(typeof value === "object" && value !== null && !Array.isArray(value) ? { structuredContent: value as Record<string, unknown> } : {})
})

/** A refusal as a tool error: the API's envelope, so that an agent reads the same code, message, hint and details. */
const refused = (error: ApiErrorInstance): CallToolResult => ({
  isError: true,
  content: [{ type: "text", text: JSON.stringify(envelopeOf(error.code, error, "complete")) }]
})

const optionalText = (value: number | undefined) => (value === undefined ? undefined : String(value))

/** The MCP tools over the registry's own services, as an anonymous caller sees the catalogue. */
export const registryTools = Effect.gen(function*() {
  const search = yield* Search
  const access = yield* AppAccess
  const resolver = yield* ReleaseResolver
  const run = Runtime.runPromise(yield* Effect.runtime<never>())
  const answer = (effect: Effect.Effect<unknown, ApiErrorInstance>) =>
    run(Effect.match(effect, { onFailure: refused, onSuccess: succeeded }))
  const tools: RegistryTools = {
    searchApps: (input) =>
      answer(
        parseSearchQuery({
          q: input.q,
          tags: input.tags?.join(","),
          target: input.target,
          sort: input.sort,
          limit: optionalText(input.limit),
          offset: optionalText(input.offset)
        }).pipe(
          Effect.flatMap((query) => search.search(query, Option.none())),
          Effect.flatMap((page) => Effect.orDie(Schema.encode(AppSearchPage)(page)))
        )
      ),
    getApp: ({ app_id }) =>
      answer(
        access.visible(app_id, Option.none()).pipe(
          Effect.flatMap(({ app }) => Effect.orDie(Schema.encode(App)(appOf(app, false))))
        )
      ),
    resolveRelease: (input) =>
      answer(resolver.resolve(input.app_id, {
        target: input.target,
        channel: input.channel ?? "production",
        version: Option.fromNullable(input.version)
      }))
  }
  return tools
})
