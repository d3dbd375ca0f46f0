import { launchService } from "@platform/service"
import { Layer } from "effect"
import { RegistryConfigLive, registrySettings } from "./config.ts"
import { RegistryAccountsLive, RegistryDatabaseLive, RegistryStoresLive, RegistryWorkersLive } from "./layers.ts"
import { RegistryServer } from "./server.ts"

const RegistryLive = Layer.merge(RegistryServer, RegistryWorkersLive).pipe(
  Layer.provide(Layer.merge(RegistryStoresLive, RegistryAccountsLive)),
  Layer.provide(RegistryDatabaseLive),
  Layer.provide(RegistryConfigLive)
)

launchService({ name: "registry", prefix: "REGISTRY", config: registrySettings, layer: RegistryLive })
