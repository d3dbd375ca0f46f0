import { IdempotencyStore } from "@platform/idempotency"
import { RateLimiter } from "@platform/rate-limit"
import { periodicSweep } from "@platform/service"
import { Effect, Layer } from "effect"

/** Every 10 minutes, one process at a time: rate windows older than a day and expired idempotent answers. */
export const RegistryRetentionLive = Layer.mergeAll(
  periodicSweep("rate_limit_windows", Effect.flatMap(RateLimiter, (limiter) => limiter.sweep)),
  periodicSweep("idempotency_results", Effect.flatMap(IdempotencyStore, (store) => store.purgeExpired))
)
