import { TestDatabase } from "@platform/database"
import { Context, Effect, Layer } from "effect"
import { IdempotencyMigration } from "../src/IdempotencyMigration.ts"
import { IdempotencyStore } from "../src/IdempotencyStore.ts"

const migrations = { "0001_idempotency": IdempotencyMigration }

/** A IdempotencyStore over a fresh database (the SqlClient stays visible to the test). */
export const storeOverFreshDatabase = () => IdempotencyStore.layer.pipe(Layer.provideMerge(TestDatabase.layer(migrations)))

/** Two server processes on one fresh database, each with its own pool, migration run and IdempotencyStore. */
export const twoProcessesOnOneDatabase = Effect.gen(function*() {
  const openAsProcess = yield* TestDatabase.sharedByProcesses(migrations)
  const startProcess = Effect.map(Layer.build(IdempotencyStore.layer.pipe(Layer.provide(openAsProcess))), Context.get(IdempotencyStore))
  return [yield* startProcess, yield* startProcess] as const
}).pipe(Effect.orDie)
