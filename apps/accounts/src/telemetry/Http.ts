import { HttpServerRequest } from "@effect/platform"
import { clientAddress } from "@platform/http"
import { enforceRateLimit, RateLimiter, type RateLimitRule } from "@platform/rate-limit"
import { compiledGroup, now } from "@platform/service"
import { Effect, Layer } from "effect"
import { AccountsApi } from "../api.ts"
import { AccountsConfig } from "../config.ts"
import { TelemetryRepo } from "./TelemetryRepo.ts"

const telemetryPerIp: RateLimitRule = {
  id: "telemetry",
  operation: "POST /v1/telemetry/events",
  limit: 120,
  window: "1 minute",
  per: "IP"
}

/** Spec 1: "Header X-Accounts-Telemetry set to off opts a request out of telemetry." */
export const telemetryOptedOut = (request: HttpServerRequest.HttpServerRequest): boolean =>
  request.headers["x-accounts-telemetry"]?.trim().toLowerCase() === "off"

export const TelemetryLive = compiledGroup(AccountsApi, "telemetry", (handlers) =>
  Effect.gen(function*() {
    const config = yield* AccountsConfig
    const limiter = yield* RateLimiter
    const telemetry = yield* TelemetryRepo
    return handlers.handle("events", ({ payload }) =>
      Effect.gen(function*() {
        yield* enforceRateLimit(limiter, telemetryPerIp, yield* clientAddress(config.trustProxy))
        const request = yield* HttpServerRequest.HttpServerRequest
        if (telemetryOptedOut(request)) return
        yield* telemetry.insert(payload.events, yield* now)
      }))
  })).pipe(Layer.provide(TelemetryRepo.Default))
