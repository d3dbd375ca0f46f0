import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { registryError } from "../errors.ts"
import { AgentCard } from "./AgentCard.ts"
import { Capabilities } from "./Capabilities.ts"
import { RequirementsNotMet } from "./errors.ts"

/** Any JSON value (Unknown's own JSON Schema carries an $id, which a document may hold only once). */
const AnyJson = Schema.declare((_: unknown): _ is unknown => true, {
  jsonSchema: { type: ["object", "array", "string", "number", "boolean", "null"] }
})

const OpenApiDocument = Schema.Record({ key: Schema.String, value: AnyJson }).annotations({
  identifier: "OpenApiDocument",
  description: "The OpenAPI 3.1 document of this API"
})

const JsonRpcMessage = Schema.Record({ key: Schema.String, value: AnyJson }).annotations({
  identifier: "JsonRpcMessage",
  description: "An MCP JSON-RPC 2.0 message (request, notification or response), as the streamable HTTP transport sends it"
})

const agentCard = <const Name extends string>(name: Name, path: `/${string}`) =>
  HttpApiEndpoint.get(name, path)
    .addSuccess(AgentCard)
    .annotate(OpenApi.Description, "The agent card: what the registry offers agents, its REST API (OpenAPI) and its MCP endpoint.")

/** How agents find out what the registry offers and reach it (spec 2: capabilities, OpenAPI, agent card, MCP). */
export class DiscoveryApi extends HttpApiGroup.make("discovery")
  .add(
    HttpApiEndpoint.get("capabilities", "/v1/capabilities")
      .setUrlParams(Schema.Struct({
        require: Schema.optional(Schema.String.annotations({
          description: "Comma list of what the client needs: streaming, subscriptions, webhooks, idempotency, search, rate_limits, " +
            "openapi, agent_card, signing, author_signatures, withdrawal, mcp, version:V, auth:METHOD, delivery:MODE, event:TYPE, target:TARGET"
        }))
      }))
      .addSuccess(Capabilities)
      .addError(registryError(RequirementsNotMet))
      .annotate(
        OpenApi.Description,
        "What this registry supports: API versions, authentication methods, targets, event delivery and features. With require, " +
          "200 when every named capability is offered, else 422 requirements_not_met listing the missing ones in error.details.missing."
      )
  )
  .add(
    HttpApiEndpoint.get("openapi", "/v1/openapi.json")
      .addSuccess(OpenApiDocument)
      .annotate(OpenApi.Description, "The OpenAPI 3.1 document, the same as /openapi.json.")
  )
  .add(agentCard("agentCard", "/.well-known/agent.json"))
  .add(agentCard("agentCardJson", "/.well-known/agent-card.json"))
  .add(
    HttpApiEndpoint.post("mcp", "/mcp")
      .setPayload(JsonRpcMessage)
      .addSuccess(JsonRpcMessage)
      .annotate(
        OpenApi.Description,
        "Model Context Protocol, streamable HTTP transport, stateless (no session; GET answers 405). Tools: search_apps, get_app, " +
          "resolve_release, as an anonymous caller sees the catalogue. Send Accept: application/json, text/event-stream; answers are JSON."
      )
  )
  .annotate(OpenApi.Title, "Discovery")
  .annotate(OpenApi.Description, "Capabilities, the OpenAPI document, the agent card and MCP, for agents")
{}
