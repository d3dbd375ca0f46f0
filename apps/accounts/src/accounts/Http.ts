import { clientAddress, InvalidQuery } from "@platform/http"
import { enforceRateLimit, RateLimiter, type RateLimitRule } from "@platform/rate-limit"
import { Effect, Layer } from "effect"
import { AccountsApi } from "../api.ts"
import { AccountsConfig } from "../config.ts"
import { type AccountKind, formatAccountId, parseAccountId, prefixKind } from "./AccountId.ts"
import { IdsRepo } from "./IdsRepo.ts"
import { compiledGroup } from "@platform/service"

const idChecksPerIp: RateLimitRule = {
  id: "ids_available",
  operation: "GET /v1/ids/available",
  limit: 120,
  window: "1 minute",
  per: "IP"
}

/** The id asked about: its prefix, else `for`, else carbon; a prefix that contradicts `for` is 400 invalid_query. */
const requestedId = (id: string, kind: AccountKind | undefined) => {
  const prefix = prefixKind(id)
  if (prefix !== undefined && kind !== undefined && prefix !== kind) {
    return Effect.fail(
      new InvalidQuery({
        message: `Query parameter for: ${kind} does not match the id's prefix.`,
        details: { parameter: "for", problem: `is ${kind} but the id is a ${prefix} id` }
      })
    )
  }
  return parseAccountId(id, kind ?? "carbon")
}

export const AccountIdsLive = compiledGroup(AccountsApi, "ids", (handlers) =>
  Effect.gen(function*() {
    const config = yield* AccountsConfig
    const limiter = yield* RateLimiter
    const ids = yield* IdsRepo
    return handlers.handle("available", ({ urlParams }) =>
      Effect.gen(function*() {
        yield* enforceRateLimit(limiter, idChecksPerIp, yield* clientAddress(config.trustProxy))
        const id = yield* requestedId(urlParams.id, urlParams.for)
        const availability = yield* ids.idAvailability(id)
        const shown = formatAccountId(id)
        switch (availability._tag) {
          case "Free":
            return { id: shown, available: true as const }
          case "Taken":
            return { id: shown, available: false as const, reason: "id_taken" as const, suggestions: availability.suggestions }
          case "Reserved":
            return {
              id: shown,
              available: false as const,
              reason: "id_reserved" as const,
              reserved_until: availability.reservedUntil.toISOString(),
              suggestions: availability.suggestions
            }
        }
      }))
  })).pipe(Layer.provide(IdsRepo.Default))
