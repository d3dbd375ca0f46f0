import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { TestDatabase } from "@platform/database"
import { Effect, Layer, Ref, TestClock } from "effect"
import { periodicSweep, SweepLeasesMigration, sweepUnderLease } from "../src/index.ts"

const migrations = { "0001_sweep_leases": SweepLeasesMigration }

const countingSweep = (runs: Ref.Ref<number>) => Ref.updateAndGet(runs, (n) => n + 1)

describe("sweepUnderLease", () => {
  it.effect("of several processes asking at once, one sweeps; the others skip until the lease runs out", () =>
    Effect.gen(function*() {
      const openAsProcess = yield* TestDatabase.sharedByProcesses(migrations)
      const processes = yield* Effect.all(
        Array.from({ length: 4 }, () => Effect.map(Layer.build(openAsProcess), (context) => context)),
        { concurrency: "unbounded" }
      )
      const runs = yield* Ref.make(0)
      const turn = Effect.all(
        processes.map((context) => Effect.provide(sweepUnderLease("codes", countingSweep(runs)), context)),
        { concurrency: "unbounded" }
      )
      const first = yield* turn
      expect(first.filter((outcome) => outcome !== "skipped")).toHaveLength(1)
      expect(yield* Ref.get(runs)).toBe(1)
      // Within the interval nobody sweeps again; at the next turn (10 minutes later) one does.
      yield* TestClock.adjust("9 minutes")
      expect((yield* turn).every((outcome) => outcome === "skipped")).toBe(true)
      yield* TestClock.adjust("1 minute")
      expect((yield* turn).filter((outcome) => outcome !== "skipped")).toHaveLength(1)
      expect(yield* Ref.get(runs)).toBe(2)
    }).pipe(Effect.scoped))

  it.effect("a lease is per sweep name", () =>
    Effect.gen(function*() {
      const runs = yield* Ref.make(0)
      expect(yield* sweepUnderLease("codes", countingSweep(runs))).toEqual({ swept: 1 })
      expect(yield* sweepUnderLease("flows", countingSweep(runs))).toEqual({ swept: 2 })
      expect(yield* sweepUnderLease("codes", countingSweep(runs))).toBe("skipped")
    }).pipe(Effect.provide(TestDatabase.layer(migrations))))

  it.scoped("periodicSweep sweeps at once and then every 10 minutes, holding the lease in the database", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const runs = yield* Ref.make(0)
      yield* Layer.build(periodicSweep("codes", countingSweep(runs)))
      // The sweep fiber runs its queries in real time: look again every few milliseconds until it has run n times.
      const ranTimes = (n: number) =>
        Effect.repeat(Effect.zipLeft(Ref.get(runs), Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 5)))), {
          until: (count) => count >= n
        })
      yield* ranTimes(1)
      const [lease] = yield* sql<{ readonly held_until: Date }>`SELECT held_until FROM sweep_leases WHERE name = 'codes'`
      expect(lease?.held_until.getTime()).toBe(9.5 * 60_000)
      yield* TestClock.adjust("10 minutes")
      yield* ranTimes(2)
      expect(yield* Ref.get(runs)).toBe(2)
    }).pipe(Effect.provide(TestDatabase.layer(migrations))))
})
