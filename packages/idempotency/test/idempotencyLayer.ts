import { SqlClient } from "@effect/sql"
import { TestDatabase } from "@platform/database"
import { Context, Effect, Layer } from "effect"
import { IdempotencyAnswerExpiryMigration, IdempotencyMigration } from "../src/IdempotencyMigration.ts"
import { IdempotencyStore } from "../src/IdempotencyStore.ts"

const migrations = {
  "0001_idempotency": IdempotencyMigration,
  "0003_idempotency_answer_expiry": IdempotencyAnswerExpiryMigration,
  // A table of the requests' own writes, to see what committed with their answers.
  "0002_writes": Effect.flatMap(SqlClient.SqlClient, (sql) => sql`CREATE TABLE writes (label text NOT NULL)`)
}

/** A IdempotencyStore over a fresh database (the SqlClient stays visible to the test). */
export const storeOverFreshDatabase = () => IdempotencyStore.layer.pipe(Layer.provideMerge(TestDatabase.layer(migrations)))

/** Two server processes on one fresh database, each with its own pool, migration run and IdempotencyStore. */
export const twoProcessesOnOneDatabase = Effect.gen(function*() {
  const openAsProcess = yield* TestDatabase.sharedByProcesses(migrations)
  const startProcess = Effect.map(
    Layer.build(IdempotencyStore.layer.pipe(Layer.provideMerge(openAsProcess))),
    (context) => ({ store: Context.get(context, IdempotencyStore), sql: Context.get(context, SqlClient.SqlClient) })
  )
  return [yield* startProcess, yield* startProcess] as const
}).pipe(Effect.orDie)
