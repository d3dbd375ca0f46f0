import { Database, TestDatabase } from "@platform/database"
import { Context, Effect, Layer, Option, Redacted } from "effect"
import { IdempotencyMigration } from "../src/IdempotencyMigration.ts"
import { IdempotencyStore } from "../src/IdempotencyStore.ts"

const migrations = { "0001_idempotency": IdempotencyMigration }

/** An IdempotencyStore over a fresh database (the SqlClient stays visible to the test). */
export const storeOverFreshDatabase = () => IdempotencyStore.layer.pipe(Layer.provideMerge(TestDatabase.layer(migrations)))

/**
 * Two server processes on one fresh database: each opens its own connection pool,
 * runs the migrations and builds its own IdempotencyStore, as separate processes do.
 */
export const twoProcessesOnOneDatabase = Effect.gen(function*() {
  const { url } = yield* TestDatabase.provision
  // PGlite is one session shared by every client: one connection per process, as in embedded mode.
  const maxConnections = TestDatabase.hasServer ? 5 : 1
  const startProcess = IdempotencyStore.layer.pipe(
    Layer.provide(Database.layer({ url: Option.some(Redacted.make(url)), dataDir: "unused-with-url", migrations, maxConnections })),
    Layer.build,
    Effect.map(Context.get(IdempotencyStore)),
    Effect.orDie
  )
  return [yield* startProcess, yield* startProcess] as const
})
