import { alive, compiledGroup, ready } from "@platform/service"
import { Effect } from "effect"
import { RegistryApi } from "../api.ts"
import { SERVICE_VERSION } from "../versions.ts"

const health = { status: "ok" as const, service: "registry" as const, version: SERVICE_VERSION }

export const ServiceLive = compiledGroup(RegistryApi, "service", (handlers) =>
  Effect.succeed(
    handlers
      .handle("healthz", () => alive)
      .handle("readyz", () => ready)
      .handle("health", () => Effect.succeed(health))
  ))
