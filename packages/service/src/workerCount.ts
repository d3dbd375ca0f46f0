import { DatabaseConfig } from "@platform/database"
import { Config, ConfigError, Either, Option } from "effect"
import { availableParallelism } from "node:os"

/** The most processes one `<PREFIX>_WORKERS` may ask for. */
export const MAX_WORKERS = 64

/** A number of worker processes, or `auto`: one per core. */
export type WorkerCount = number | "auto"

const asWorkerCount = (value: string): Either.Either<WorkerCount, string> => {
  const trimmed = value.trim().toLowerCase()
  if (trimmed === "auto") return Either.right("auto")
  const count = /^\d+$/.test(trimmed) ? Number(trimmed) : Number.NaN
  return count >= 1 && count <= MAX_WORKERS
    ? Either.right(count)
    : Either.left(`must be a whole number from 1 to ${MAX_WORKERS}, or auto, got ${JSON.stringify(value)}`)
}

/**
 * `<PREFIX>_WORKERS` (default 1), checked with the database settings: several processes share
 * one PostgreSQL database; the embedded database belongs to one process, so it takes 1 only.
 */
export const workersConfig = (prefix: string, service: string): Config.Config<WorkerCount> =>
  Config.all([
    Config.string("WORKERS").pipe(
      // Checked before the default applies, so that a refusal names the variable.
      Config.mapOrFail((value) => Either.mapLeft(asWorkerCount(value), (message) => ConfigError.InvalidData([], message))),
      Config.withDefault<WorkerCount>(1),
      Config.nested(prefix)
    ),
    DatabaseConfig({ prefix: `${prefix}_`, service })
  ]).pipe(
    Config.mapOrFail(([workers, database]) =>
      workers !== 1 && Option.isNone(database.url)
        ? Either.left(ConfigError.InvalidData(
          [prefix, "WORKERS"],
          `must be 1 with the embedded database (one process owns it); set ${prefix}_DATABASE_URL to run more`
        ))
        : Either.right(workers)
    )
  )

/** How many processes to run: `auto` is one per core (at most MAX_WORKERS). */
export const resolveWorkerCount = (workers: WorkerCount): number =>
  workers === "auto" ? Math.min(availableParallelism(), MAX_WORKERS) : workers
