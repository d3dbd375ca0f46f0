import { NodeRuntime } from "@effect/platform-node"
import { JsonLoggerLive } from "@platform/logging"
import { ConfigError, Effect, Layer } from "effect"
import { AccountsConfigLive, describeConfigError } from "./config.ts"
import { AccountsDatabaseLive, AccountsStoresLive, AccountsWorkersLive } from "./layers.ts"
import { AccountsServer } from "./server.ts"

const AccountsLive = Layer.merge(AccountsServer, AccountsWorkersLive).pipe(
  Layer.provide(AccountsStoresLive),
  Layer.provide(AccountsDatabaseLive),
  Layer.provide(AccountsConfigLive),
  Layer.provide(JsonLoggerLive)
)

Layer.launch(AccountsLive).pipe(
  Effect.catchIf(ConfigError.isConfigError, (error) =>
    Effect.sync(() => {
      process.stderr.write(`accounts: configuration error: ${describeConfigError(error)}\n`)
      process.exitCode = 1
    })),
  NodeRuntime.runMain({ disablePrettyLogger: true })
)
