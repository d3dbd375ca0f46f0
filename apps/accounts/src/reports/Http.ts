import { clientAddress } from "@platform/http"
import { enforceRateLimit, RateLimiter, type RateLimitRule } from "@platform/rate-limit"
import { Effect, Layer, Option } from "effect"
import { AccountsApi } from "../api.ts"
import { AccountsConfig } from "../config.ts"
import { MaybeAccount, OptionalAccountAuthLive } from "../auth/OptionalAccountAuth.ts"
import { ReportsRepo } from "./ReportsRepo.ts"
import { compiledGroup } from "@platform/service"

const reportsPerIp: RateLimitRule = {
  id: "reports",
  operation: "POST /v1/reports",
  limit: 5,
  window: "1 hour",
  per: "IP"
}

export const ReportsLive = compiledGroup(AccountsApi, "reports", (handlers) =>
  Effect.gen(function*() {
    const config = yield* AccountsConfig
    const limiter = yield* RateLimiter
    const reports = yield* ReportsRepo
    return handlers.handle("create", ({ payload }) =>
      Effect.gen(function*() {
        const address = yield* clientAddress(config.trustProxy)
        yield* enforceRateLimit(limiter, reportsPerIp, address)
        const account = yield* MaybeAccount
        const saved = yield* reports.insert({
          message: payload.message,
          prUrl: payload.pr_url,
          accountUuid: Option.getOrUndefined(Option.map(account, (signedIn) => signedIn.uuid))
        })
        return { report_id: saved.id, status: "received" as const, received_at: saved.receivedAt.toISOString() }
      }))
  })).pipe(Layer.provide([ReportsRepo.Default, OptionalAccountAuthLive]))
