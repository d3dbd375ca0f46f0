import { layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Clock, Effect, Layer, Option } from "effect"
import { expect } from "vitest"
import { SigninsRepo } from "../src/oauth/SigninsRepo.ts"
import { AccountReposTest } from "./support/accountsRepo.ts"
import { createCarbon } from "./support/carbons.ts"

// On a PostgreSQL server our connections keep each statement prepared; a statement that returned
// `*` would fail with "cached plan must not change result type" once a migration adds a column.
layer(Layer.provideMerge(SigninsRepo.Default, AccountReposTest()))("statements kept prepared across a migration", (it) => {
  it.effect("sign-in reads and a rotation still answer after a column is added to signins", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const signins = yield* SigninsRepo
      const carbon = yield* createCarbon()
      const now = new Date(yield* Clock.currentTimeMillis)
      const started = yield* signins.start({ accountUuid: carbon.uuid, clientId: "accounts", clientLabel: null, method: "cli_code", now })
      // Every pooled connection prepares the reads before the migration.
      const readAll = Effect.forEach(Array.from({ length: 8 }), () => signins.find(started.signin.id), { concurrency: 8 })
      yield* readAll
      yield* sql`ALTER TABLE signins ADD COLUMN kept_plans_probe text`
      for (const found of yield* readAll) expect(Option.map(found, (row) => row.id)).toEqual(Option.some(started.signin.id))
      const rotated = yield* signins.rotate(started.refreshToken, "accounts", now)
      expect(rotated._tag).toBe("Rotated")
      yield* sql`ALTER TABLE signins DROP COLUMN kept_plans_probe`
    }))
})
