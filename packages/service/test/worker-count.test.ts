import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Either } from "effect"
import { availableParallelism } from "node:os"
import { describeConfigError, MAX_WORKERS, resolveWorkerCount, workersConfig } from "../src/index.ts"

const DATABASE = { EXAMPLE_DATABASE_URL: "postgres://db.example.com/example" }

const read = (env: Record<string, string>) =>
  Effect.map(
    Effect.either(Effect.withConfigProvider(
      workersConfig("EXAMPLE", "example"),
      ConfigProvider.fromMap(new Map(Object.entries(env)), { pathDelim: "_" })
    )),
    Either.mapLeft(describeConfigError)
  )

describe("EXAMPLE_WORKERS", () => {
  it.effect("defaults to one process, takes 1 to 64 or auto (one per core)", () =>
    Effect.gen(function*() {
      expect(yield* read({})).toEqual(Either.right(1))
      expect(yield* read({ EXAMPLE_WORKERS: "1" })).toEqual(Either.right(1))
      expect(yield* read({ ...DATABASE, EXAMPLE_WORKERS: " 64 " })).toEqual(Either.right(64))
      expect(yield* read({ ...DATABASE, EXAMPLE_WORKERS: "AUTO" })).toEqual(Either.right("auto"))
      expect(resolveWorkerCount("auto")).toBe(Math.min(availableParallelism(), MAX_WORKERS))
      expect(resolveWorkerCount(3)).toBe(3)
    }))

  it.effect("refuses anything else, naming the variable", () =>
    Effect.gen(function*() {
      for (const value of ["0", "65", "two", "1.5", "-2", ""]) {
        expect(yield* read({ ...DATABASE, EXAMPLE_WORKERS: value })).toEqual(Either.left(
          `EXAMPLE_WORKERS must be a whole number from 1 to 64, or auto, got ${JSON.stringify(value)}`
        ))
      }
    }))

  it.effect("is 1 on the embedded database, which one process owns", () =>
    Effect.gen(function*() {
      for (const value of ["2", "auto"]) {
        expect(yield* read({ EXAMPLE_WORKERS: value })).toEqual(Either.left(
          "EXAMPLE_WORKERS must be 1 with the embedded database (one process owns it); set EXAMPLE_DATABASE_URL to run more"
        ))
      }
    }))
})
