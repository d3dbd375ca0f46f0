import { mailSettings } from "@platform/mail"
import { launchService } from "@platform/service"
import { Config, Layer } from "effect"
import { AccountsConfigLive, accountsSettings } from "./config.ts"
import { AccountsDatabaseLive, AccountsStoresLive, AccountsWorkersLive } from "./layers.ts"
import { AccountsServer } from "./server.ts"

const AccountsLive = Layer.merge(AccountsServer, AccountsWorkersLive).pipe(
  Layer.provide(AccountsStoresLive),
  Layer.provide(AccountsDatabaseLive),
  Layer.provide(AccountsConfigLive)
)

launchService({
  name: "accounts",
  prefix: "ACCOUNTS",
  // The mail settings too: production without SMTP must stop before the database is created.
  config: Config.all([accountsSettings, mailSettings("ACCOUNTS_")]),
  layer: AccountsLive
})
