import { NodeRuntime } from "@effect/platform-node"
import { DatabaseConfig } from "@platform/database"
import { addLogFields, JsonLoggerLive } from "@platform/logging"
import { Cause, Config, Effect, Layer, Option } from "effect"
import cluster from "node:cluster"
import { runWorkers, WorkerStartFailed } from "./runWorkers.ts"
import { describeStartupFailure } from "./startupFailure.ts"
import { resolveWorkerCount, workersConfig } from "./workerCount.ts"
import { workerNumber } from "./workerNumber.ts"

export interface ServiceLaunch<A, E> {
  /** `accounts`: the first word of a line that stops the start, and the default data directory `data/<name>`. */
  readonly name: string
  /** The environment prefix without its underscore: `ACCOUNTS`. */
  readonly prefix: string
  /**
   * Every setting the service reads besides its database's (those are
   * checked here too): read before anything is built, so that a wrong value
   * stops the start before the database is opened or migrated. The layers
   * read their settings again as usual.
   */
  readonly config: Config.Config<unknown>
  /** The whole service: its server, workers, stores and database. */
  readonly layer: Layer.Layer<A, E>
}

/** Each worker's lines say which it is; it stops at the primary's word or its own first signal, never at a repeat. */
const asWorker = (number: number): void => {
  addLogFields({ worker: number })
  const ignore = () => {}
  process.on("SIGINT", ignore)
  process.on("SIGTERM", ignore)
}

/**
 * A service's `main`: checks the configuration, then runs the layer until
 * SIGTERM, logging JSON lines. A start that fails for a reason a person can
 * fix (a wrong setting, a port in use, an unreachable database) prints one
 * line on stderr, `accounts: …`; any other failure is logged with its cause.
 * Either way the process exits 1.
 *
 * With `<PREFIX>_WORKERS` above 1 (or `auto` on several cores) this process
 * checks the configuration, then runs that many copies of itself sharing the
 * port (runWorkers), each running the layer; a worker that cannot start says
 * why in its own line and the whole start fails.
 */
export const launchService = <A, E>(service: ServiceLaunch<A, E>): void => {
  const database = DatabaseConfig({ prefix: `${service.prefix}_`, service: service.name })

  const report = (cause: Cause.Cause<unknown>) =>
    Effect.gen(function*() {
      if (Cause.isInterruptedOnly(cause)) return
      // The worker that could not start has said why.
      if (Option.exists(Cause.failureOption(cause), (error) => error instanceof WorkerStartFailed)) return
      const databaseUrlSet = yield* database.pipe(
        Effect.map((settings) => Option.isSome(settings.url)),
        Effect.orElseSucceed(() => false)
      )
      const line = Option.flatMapNullable(
        Cause.failureOption(cause),
        (error) => describeStartupFailure(error, { name: service.name, prefix: service.prefix, databaseUrlSet })
      )
      if (Option.isNone(line)) return yield* Effect.logError(`${service.name} stopped`, cause)
      process.stderr.write(`${service.name}: ${line.value}\n`)
    })

  const worker = workerNumber()
  if (worker !== undefined) asWorker(worker)
  const run = Effect.flatMap(
    Config.all([service.config, workersConfig(service.prefix, service.name)]),
    ([, workers]): Effect.Effect<unknown, E | WorkerStartFailed> => {
      const count = resolveWorkerCount(workers)
      return cluster.isPrimary && count > 1 ? runWorkers(count) : Layer.launch(service.layer)
    }
  )

  run.pipe(
    Effect.tapErrorCause(report),
    Effect.provide(JsonLoggerLive),
    NodeRuntime.runMain({ disablePrettyLogger: true, disableErrorReporting: true })
  )
}
