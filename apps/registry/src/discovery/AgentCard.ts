import { Schema } from "effect"
import type { RegistrySettings } from "../config.ts"
import { registryVersioning, SERVICE_VERSION } from "../versions.ts"

const Skill = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  description: Schema.String,
  tags: Schema.Array(Schema.String),
  examples: Schema.Array(Schema.String)
}).annotations({ identifier: "AgentSkill" })

/**
 * The agent card (A2A 0.3's AgentCard: name, description, url, version, capabilities, skills, …) for agents that
 * discover services by it. The registry is not an A2A task server: its interfaces are the REST API (OpenAPI) and
 * MCP (streamable HTTP), named in `additionalInterfaces` and spelled out in `interfaces`.
 */
export const AgentCard = Schema.Struct({
  protocolVersion: Schema.String,
  name: Schema.String,
  description: Schema.String,
  url: Schema.String,
  preferredTransport: Schema.String,
  additionalInterfaces: Schema.Array(Schema.Struct({ url: Schema.String, transport: Schema.String })),
  version: Schema.String,
  documentationUrl: Schema.String,
  capabilities: Schema.Struct({
    streaming: Schema.Boolean,
    pushNotifications: Schema.Boolean,
    stateTransitionHistory: Schema.Boolean
  }),
  securitySchemes: Schema.Struct({
    bearer: Schema.Struct({ type: Schema.Literal("http"), scheme: Schema.Literal("bearer"), bearerFormat: Schema.String, description: Schema.String })
  }),
  defaultInputModes: Schema.Array(Schema.String),
  defaultOutputModes: Schema.Array(Schema.String),
  skills: Schema.Array(Skill),
  interfaces: Schema.Struct({
    rest: Schema.Struct({
      url: Schema.String,
      openapi: Schema.String,
      capabilities: Schema.String,
      version_header: Schema.String,
      versions: Schema.Array(Schema.String)
    }),
    mcp: Schema.Struct({
      url: Schema.String,
      transport: Schema.Literal("streamable-http"),
      stateless: Schema.Boolean,
      tools: Schema.Array(Schema.String)
    })
  })
}).annotations({ identifier: "AgentCard" })

/** The MCP tools, which are also the card's skills. */
export const SKILLS: ReadonlyArray<typeof Skill.Type> = [
  {
    id: "search_apps",
    name: "Search apps",
    description: "Searches the public catalogue by text, tags and target, ranked by relevance (exact id or name, prefix, substring, typo) then rating.",
    tags: ["search", "catalogue", "apps"],
    examples: ["Find a weather app for linux-x64", "Apps tagged forecast, by installs"]
  },
  {
    id: "get_app",
    name: "App details",
    description: "An app's details: name, description, links, tags, rating and installs.",
    tags: ["apps", "details"],
    examples: ["Show the app weather"]
  },
  {
    id: "resolve_release",
    name: "Resolve a release",
    description: "The release of an app to install for a target and channel (the newest not withdrawn, or a named version), with its " +
      "package's download path, digest and the Ed25519 signature to check before running it.",
    tags: ["releases", "install", "signing"],
    examples: ["Which release of weather should linux-x64 install?"]
  }
]

export const agentCardOf = (settings: RegistrySettings): typeof AgentCard.Type => {
  const base = settings.publicUrl
  return {
    protocolVersion: "0.3.0",
    name: "Application registry",
    description: "Apps for Carbons and Silicons: search the catalogue, read an app's details, and resolve the signed release " +
      "to install for a target. REST API described by OpenAPI 3.1; the same search, details and resolve as MCP tools.",
    url: base,
    preferredTransport: "HTTP+JSON",
    additionalInterfaces: [{ url: `${base}/v1`, transport: "HTTP+JSON" }, { url: `${base}/mcp`, transport: "MCP" }],
    version: SERVICE_VERSION,
    documentationUrl: `${base}/docs`,
    capabilities: { streaming: false, pushNotifications: false, stateTransitionHistory: false },
    securitySchemes: {
      bearer: {
        type: "http",
        scheme: "bearer",
        bearerFormat: "JWT",
        description: "An access token from accounts for the registry audience; public apps need none"
      }
    },
    defaultInputModes: ["application/json"],
    defaultOutputModes: ["application/json"],
    skills: SKILLS,
    interfaces: {
      rest: {
        url: `${base}/v1`,
        openapi: `${base}/openapi.json`,
        capabilities: `${base}/v1/capabilities`,
        version_header: registryVersioning.header,
        versions: registryVersioning.supported
      },
      mcp: { url: `${base}/mcp`, transport: "streamable-http", stateless: true, tools: SKILLS.map((skill) => skill.id) }
    }
  }
}
