import { NodeHttpServerRequest } from "@effect/platform-node"
import { decodeCursor, DEFAULT_PAGE_SIZE, noStore, pageOf } from "@platform/http"
import { enforceRateLimit, RateLimiter } from "@platform/rate-limit"
import { Effect, Layer, Option, Schema } from "effect"
import { AccountsApi } from "../api.ts"
import { AppOrAuthorLive, CurrentAppManager } from "../app-management/AppOrAuthor.ts"
import { AccountsConfig } from "../config.ts"
import { CsvImports, importRequests } from "./CsvImports.ts"
import { ImportNotFound } from "./errors.ts"
import { ImportSlots } from "./ImportSlots.ts"
import { ImportsRepo } from "./ImportsRepo.ts"
import { compiledGroup } from "@platform/service"

const JobCursor = Schema.Struct({ created_at: Schema.String, import_id: Schema.String })
const LineCursor = Schema.Struct({ line: Schema.Int })

interface PageQuery {
  readonly limit?: number | undefined
  readonly cursor?: string | undefined
}

export const ImportsLive = compiledGroup(AccountsApi, "imports", (handlers) =>
  Effect.gen(function*() {
    const config = yield* AccountsConfig
    const limiter = yield* RateLimiter
    const slots = yield* ImportSlots
    const imports = yield* CsvImports
    const repo = yield* ImportsRepo

    const ownJob = (appId: string, importId: string) =>
      Effect.flatMap(repo.find(appId, importId), Option.match({
        onNone: () => Effect.fail(new ImportNotFound({ message: "This app has no import with this id." })),
        onSome: Effect.succeed
      }))

    const jobs = (appId: string, query: PageQuery) =>
      Effect.gen(function*() {
        const limit = query.limit ?? DEFAULT_PAGE_SIZE
        const after = query.cursor === undefined ? null : yield* decodeCursor(JobCursor, query.cursor)
        const page = pageOf(yield* repo.list(appId, limit + 1, after), limit, (job) => ({ created_at: job.created_at, import_id: job.import_id }))
        yield* noStore
        return { items: page.items, next_cursor: page.nextCursor }
      })

    const rowErrors = (appId: string, importId: string, query: PageQuery) =>
      Effect.gen(function*() {
        yield* ownJob(appId, importId)
        const limit = query.limit ?? DEFAULT_PAGE_SIZE
        const after = query.cursor === undefined ? 0 : (yield* decodeCursor(LineCursor, query.cursor)).line
        const page = pageOf(yield* repo.errors(importId, limit + 1, after), limit, (entry) => ({ line: entry.line }))
        yield* noStore
        return { items: page.items, next_cursor: page.nextCursor }
      })

    return handlers
      .handleRaw("create", ({ request }) =>
        Effect.gen(function*() {
          const manager = yield* CurrentAppManager
          yield* enforceRateLimit(limiter, importRequests, manager.appId)
          const job = yield* slots.withSlot(
            config.importWaitSeconds,
            imports.run({
              appId: manager.appId,
              startedBy: manager.kind === "author" ? manager.account.uuid : null,
              body: NodeHttpServerRequest.toIncomingMessage(request),
              timeBudgetSeconds: config.importTimeBudgetSeconds
            })
          )
          yield* noStore
          return job
        }))
      .handle("list", ({ urlParams }) => Effect.flatMap(CurrentAppManager, (manager) => jobs(manager.appId, urlParams)))
      .handle("get", ({ path }) =>
        Effect.flatMap(CurrentAppManager, (manager) => Effect.tap(ownJob(manager.appId, path.import_id), () => noStore)))
      .handle("errors", ({ path, urlParams }) =>
        Effect.flatMap(CurrentAppManager, (manager) => rowErrors(manager.appId, path.import_id, urlParams)))
  })).pipe(Layer.provide([CsvImports.Default, ImportsRepo.Default, ImportSlots.Default, AppOrAuthorLive]))
