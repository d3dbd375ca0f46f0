import { NodeRuntime } from "@effect/platform-node"
import { DatabaseConfig } from "@platform/database"
import { JsonLoggerLive } from "@platform/logging"
import { Cause, Config, Effect, Layer, Option } from "effect"
import { describeStartupFailure } from "./startupFailure.ts"

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

/**
 * A service's `main`: checks the configuration, then runs the layer until
 * SIGTERM, logging JSON lines. A start that fails for a reason a person can
 * fix (a wrong setting, a port in use, an unreachable database) prints one
 * line on stderr, `accounts: …`; any other failure is logged with its cause.
 * Either way the process exits 1.
 */
export const launchService = <A, E>(service: ServiceLaunch<A, E>): void => {
  const database = DatabaseConfig({ prefix: `${service.prefix}_`, service: service.name })

  const report = (cause: Cause.Cause<unknown>) =>
    Effect.gen(function*() {
      if (Cause.isInterruptedOnly(cause)) return
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

  Config.all([service.config, database]).pipe(
    Effect.zipRight(Layer.launch(service.layer)),
    Effect.tapErrorCause(report),
    Effect.provide(JsonLoggerLive),
    NodeRuntime.runMain({ disablePrettyLogger: true, disableErrorReporting: true })
  )
}
