import { TestDatabase } from "@platform/database"
import { Context, Effect, Layer } from "effect"
import { RateLimitMigration } from "../src/RateLimitMigration.ts"
import { RateLimiter } from "../src/RateLimiter.ts"

const migrations = { "0001_rate_limits": RateLimitMigration }

/** A RateLimiter over a fresh database (the SqlClient stays visible to the test). */
export const rateLimiterOverFreshDatabase = () => RateLimiter.layer.pipe(Layer.provideMerge(TestDatabase.layer(migrations)))

/** Two server processes on one fresh database, each with its own pool, migration run and RateLimiter. */
export const twoProcessesOnOneDatabase = Effect.gen(function*() {
  const openAsProcess = yield* TestDatabase.sharedByProcesses(migrations)
  const startProcess = Effect.map(Layer.build(RateLimiter.layer.pipe(Layer.provide(openAsProcess))), Context.get(RateLimiter))
  return [yield* startProcess, yield* startProcess] as const
}).pipe(Effect.orDie)
