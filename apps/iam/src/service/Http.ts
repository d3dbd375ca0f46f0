import { alive, compiledGroup, ready } from "@platform/service"
import { Effect } from "effect"
import { IamApi } from "../api.ts"
import { IamConfig } from "../config.ts"
import { iamVersioning, SERVICE_VERSION } from "../versions.ts"

export const ServiceLive = compiledGroup(IamApi, "service", (handlers) =>
  Effect.map(IamConfig, (config) => {
    const meta = {
      name: "iam" as const,
      version: SERVICE_VERSION,
      environment: config.environment,
      public_url: config.publicUrl,
      accounts_url: config.accountsUrl,
      docs_url: `${config.publicUrl}/docs`,
      versions: { current: iamVersioning.current, supported: iamVersioning.supported }
    }
    return handlers
      .handle("healthz", () => alive)
      .handle("readyz", () => ready)
      .handle("meta", () => Effect.succeed(meta))
  }))
