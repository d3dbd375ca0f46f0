import { HttpServerResponse, OpenApi } from "@effect/platform"
import { Effect, Layer } from "effect"
import { RegistryApi } from "../api.ts"
import { AppAccess } from "../apps/AppAccess.ts"
import { RegistryConfig } from "../config.ts"
import { Search } from "../search/Search.ts"
import { agentCardOf } from "./AgentCard.ts"
import { capabilitiesOf, missingOf, requirementsOf } from "./Capabilities.ts"
import { RequirementsNotMet } from "./errors.ts"
import { answerMcp } from "./McpEndpoint.ts"
import { makeMcpServer } from "./McpTools.ts"
import { registryTools } from "./registryTools.ts"
import { compiledGroup } from "@platform/service"

/**
 * Discovery for agents. Leaves ReleaseResolver to the composition root (the area that resolves releases
 * plugs in there).
 */
export const DiscoveryLive = compiledGroup(RegistryApi, "discovery", (handlers) =>
  Effect.gen(function*() {
    const config = yield* RegistryConfig
    const capabilities = capabilitiesOf(config)
    const card = agentCardOf(config)
    // The document /openapi.json serves (HttpApiBuilder.middlewareOpenApi makes it the same way), once.
    const openApi = HttpServerResponse.unsafeJson(OpenApi.fromApi(RegistryApi))
    const tools = yield* registryTools
    return handlers
      .handle("capabilities", ({ urlParams }) => {
        const required = requirementsOf(urlParams.require)
        const missing = missingOf(capabilities, required)
        return missing.length === 0
          ? Effect.succeed({ ...capabilities, requirements: { satisfied: true as const, required } })
          : Effect.fail(
            new RequirementsNotMet({
              message: `This registry does not offer: ${missing.join(", ")}.`,
              hint: "GET /v1/capabilities without require lists what it offers.",
              details: { missing }
            })
          )
      })
      .handle("openapi", () => Effect.succeed(openApi))
      .handle("agentCard", () => Effect.succeed(card))
      .handle("agentCardJson", () => Effect.succeed(card))
      .handle("mcp", ({ payload, request }) => answerMcp(request, payload, () => makeMcpServer(tools)))
  })).pipe(Layer.provide(Layer.merge(Search.Default, AppAccess.Default)))
