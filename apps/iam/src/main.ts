import { mailSettings } from "@platform/mail"
import { launchService } from "@platform/service"
import { Config, Layer } from "effect"
import { IamConfigLive, iamSettings } from "./config.ts"
import { IamAccountsDirectoryLive, IamDatabaseLive, IamStoresLive, IamWorkersLive } from "./layers.ts"
import { IamServer } from "./server.ts"

const IamLive = Layer.merge(IamServer, IamWorkersLive).pipe(
  Layer.provide(Layer.merge(IamStoresLive, IamAccountsDirectoryLive)),
  Layer.provide(IamDatabaseLive),
  Layer.provide(IamConfigLive)
)

launchService({
  name: "iam",
  prefix: "IAM",
  // The mail settings too: production without SMTP must stop before the database is created.
  config: Config.all([iamSettings, mailSettings("IAM_")]),
  layer: IamLive
})
