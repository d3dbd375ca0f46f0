import { alive, compiledGroup, ready } from "@platform/service"
import { Effect, Option } from "effect"
import { AccountsApi } from "../api.ts"
import { AccountsConfig } from "../config.ts"
import { accountsVersioning, SERVICE_VERSION } from "../versions.ts"
import { FEATURES, missingRequirements } from "./Capabilities.ts"
import { RequirementsNotMet } from "./errors.ts"

export const ServiceLive = compiledGroup(AccountsApi, "service", (handlers) =>
  Effect.gen(function*() {
    const config = yield* AccountsConfig
    const meta = {
      name: "accounts",
      version: SERVICE_VERSION,
      environment: config.environment,
      public_url: config.publicUrl,
      apps_url: config.appsUrl,
      docs_url: `${config.publicUrl}/docs`,
      // Whether the deployment has its own client (managed mode); byo apps bring theirs.
      providers: { idp_a: Option.isSome(config.idpA.client), idp_b: Option.isSome(config.idpB.client) },
      delivery: []
    } as const
    const versions = { current: accountsVersioning.current, supported: accountsVersioning.supported }
    return handlers
      .handle("healthz", () => alive)
      .handle("readyz", () => ready)
      .handle("meta", () => Effect.succeed(meta))
      .handle("capabilities", ({ urlParams }) => {
        if (urlParams.require === undefined) return Effect.succeed({ versions, features: FEATURES })
        const missing = missingRequirements(urlParams.require)
        if (missing.length > 0) {
          return Effect.fail(
            new RequirementsNotMet({
              message: `This deployment does not satisfy: ${missing.join(", ")}.`,
              details: { missing }
            })
          )
        }
        const required = urlParams.require.split(",").map((item) => item.trim()).filter((item) => item.length > 0)
        return Effect.succeed({ versions, features: FEATURES, requirements: { satisfied: true as const, required } })
      })
  }))
