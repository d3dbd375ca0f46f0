import { decodeCursor, DEFAULT_PAGE_SIZE, pageOf } from "@platform/http"
import { Effect, Layer, Option } from "effect"
import { AccountsApi } from "../api.ts"
import { AccountAuthLive } from "../auth/AccountAuth.ts"
import { CurrentAccount } from "../auth/CurrentAccount.ts"
import { HistoryPosition } from "./HistoryItem.ts"
import { HistoryRepo } from "./HistoryRepo.ts"
import { compiledGroup } from "@platform/service"

export const HistoryLive = compiledGroup(AccountsApi, "history", (handlers) =>
  Effect.gen(function*() {
    const history = yield* HistoryRepo
    return handlers.handle("list", ({ urlParams }) =>
      Effect.gen(function*() {
        const account = yield* CurrentAccount
        const limit = urlParams.limit ?? DEFAULT_PAGE_SIZE
        const after = urlParams.cursor === undefined
          ? Option.none()
          : Option.some(yield* decodeCursor(HistoryPosition, urlParams.cursor))
        const rows = yield* history.page(account.uuid, urlParams.kind, limit, after)
        const page = pageOf(rows, limit, (row) => [row.atMicros, row.key] as const)
        return { items: page.items.map((row) => row.item), next_cursor: page.nextCursor }
      }))
  })).pipe(Layer.provide([HistoryRepo.Default, AccountAuthLive]))
