import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js"
import { z } from "zod"
import { TARGETS } from "../targets/Targets.ts"
import { MAX_LIMIT, MAX_QUERY_LENGTH, MAX_TAGS, SORTS } from "../search/SearchQuery.ts"
import { SERVICE_VERSION } from "../versions.ts"
import { SKILLS } from "./AgentCard.ts"

export interface SearchAppsInput {
  readonly q?: string | undefined
  readonly tags?: ReadonlyArray<string> | undefined
  readonly target?: typeof TARGETS[number] | undefined
  readonly sort?: typeof SORTS[number] | undefined
  readonly limit?: number | undefined
  readonly offset?: number | undefined
}

export interface ResolveReleaseInput {
  readonly app_id: string
  readonly target: typeof TARGETS[number]
  readonly channel?: "production" | "development" | undefined
  readonly version?: string | undefined
}

/** What the tools do, each answering a tool result (an error result carries the API's error envelope). */
export interface RegistryTools {
  readonly searchApps: (input: SearchAppsInput) => Promise<CallToolResult>
  readonly getApp: (input: { readonly app_id: string }) => Promise<CallToolResult>
  readonly resolveRelease: (input: ResolveReleaseInput) => Promise<CallToolResult>
}

const describedAs = (id: string) => {
  const skill = SKILLS.find((candidate) => candidate.id === id)
  return { title: skill?.name ?? id, description: skill?.description ?? id }
}

const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }

/** The registry's MCP server: three read-only tools over the anonymous catalogue. One per request (stateless). */
export const makeMcpServer = (tools: RegistryTools): McpServer => {
  const server = new McpServer({ name: "registry", version: SERVICE_VERSION }, { capabilities: { tools: {} } })
  server.registerTool("search_apps", {
    ...describedAs("search_apps"),
    inputSchema: {
      q: z.string().max(MAX_QUERY_LENGTH).optional().describe("Text to find in app ids and names"),
      tags: z.array(z.string()).max(MAX_TAGS).optional().describe("Tags, every one required"),
      target: z.enum(TARGETS).optional().describe("Only apps with a production release for this target"),
      sort: z.enum(SORTS).optional().describe("Order (default relevance)"),
      limit: z.number().int().min(1).max(MAX_LIMIT).optional().describe("Results per page (default 50)"),
      offset: z.number().int().min(0).optional().describe("Results to skip (default 0)")
    },
    annotations: readOnly
  }, (input) => tools.searchApps(input))
  server.registerTool("get_app", {
    ...describedAs("get_app"),
    inputSchema: { app_id: z.string().min(1).max(200).describe("The app's id") },
    annotations: readOnly
  }, (input) => tools.getApp(input))
  server.registerTool("resolve_release", {
    ...describedAs("resolve_release"),
    inputSchema: {
      app_id: z.string().min(1).max(200).describe("The app's id"),
      target: z.enum(TARGETS).describe("The platform to install on"),
      channel: z.enum(["production", "development"]).optional().describe("Default production"),
      version: z.string().min(1).max(100).optional().describe("A named version; default the newest not withdrawn")
    },
    annotations: readOnly
  }, (input) => tools.resolveRelease(input))
  return server
}
