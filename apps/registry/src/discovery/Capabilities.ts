import { Schema } from "effect"
import type { RegistrySettings } from "../config.ts"
import { TARGETS } from "../targets/Targets.ts"
import { MAX_LIMIT } from "../search/SearchQuery.ts"
import { registryVersioning, SERVICE_VERSION } from "../versions.ts"

/**
 * What the registry offers, by the names `require` uses. Honest for this build: event streams,
 * subscriptions and webhooks are not built, so they are false (and `delivery:stream` / `delivery:webhook`
 * are missing) until they are.
 */
export const FEATURES = {
  streaming: false,
  subscriptions: false,
  webhooks: false,
  idempotency: true,
  search: true,
  rate_limits: true,
  openapi: true,
  agent_card: true,
  signing: true,
  author_signatures: true,
  withdrawal: true,
  mcp: true
} as const

/** How events reach a client: only by reading an app's history (`release.withdrawn` is recorded there). */
export const DELIVERY_MODES = ["poll"] as const
export const EVENT_TYPES = ["release.withdrawn"] as const

const Features = Schema.Struct(
  Object.fromEntries(Object.keys(FEATURES).map((name) => [name, Schema.Boolean])) as {
    readonly [K in keyof typeof FEATURES]: typeof Schema.Boolean
  }
)

export const Capabilities = Schema.Struct({
  service: Schema.Literal("registry"),
  service_version: Schema.String,
  api_versions: Schema.Struct({
    header: Schema.String,
    current: Schema.String,
    supported: Schema.Array(Schema.String)
  }),
  auth_methods: Schema.Array(Schema.String).annotations({
    description: "anonymous (public reads), account_token (accounts' access token for the registry audience), developer_token " +
      "(accounts' developer-platform token, for the operations spec 2 lists), development_bearer (local development only)"
  }),
  targets: Schema.Array(Schema.String),
  delivery_modes: Schema.Array(Schema.String).annotations({ description: "How events reach a client: poll (an app's history)" }),
  event_types: Schema.Array(Schema.String),
  features: Features,
  limits: Schema.Struct({
    reads_per_minute: Schema.Number,
    writes_per_minute: Schema.Number,
    search_limit_max: Schema.Number
  }),
  links: Schema.Struct({
    openapi: Schema.String,
    agent_card: Schema.String,
    mcp: Schema.String,
    docs: Schema.String
  }),
  requirements: Schema.Struct({
    satisfied: Schema.Literal(true),
    required: Schema.Array(Schema.String)
  })
}).annotations({ identifier: "Capabilities" })
export type Capabilities = typeof Capabilities.Type

/** The capabilities of a registry with these settings (without the requirements' answer). */
export const capabilitiesOf = (settings: RegistrySettings): Omit<Capabilities, "requirements"> => ({
  service: "registry",
  service_version: SERVICE_VERSION,
  api_versions: {
    header: registryVersioning.header,
    current: registryVersioning.current,
    supported: registryVersioning.supported
  },
  auth_methods: [
    "anonymous",
    "account_token",
    "developer_token",
    ...(settings.developmentBearer ? ["development_bearer"] : [])
  ],
  targets: TARGETS,
  delivery_modes: DELIVERY_MODES,
  event_types: EVENT_TYPES,
  features: FEATURES,
  limits: {
    reads_per_minute: settings.rateLimits.readsPerMinute,
    writes_per_minute: settings.rateLimits.writesPerMinute,
    search_limit_max: MAX_LIMIT
  },
  links: {
    openapi: `${settings.publicUrl}/v1/openapi.json`,
    agent_card: `${settings.publicUrl}/.well-known/agent-card.json`,
    mcp: `${settings.publicUrl}/mcp`,
    docs: `${settings.publicUrl}/docs`
  }
})

const listed = (kind: string): ((capabilities: Omit<Capabilities, "requirements">) => ReadonlyArray<string>) | undefined => {
  switch (kind) {
    case "version":
      return (capabilities) => capabilities.api_versions.supported
    case "auth":
      return (capabilities) => capabilities.auth_methods
    case "delivery":
      return (capabilities) => capabilities.delivery_modes
    case "event":
      return (capabilities) => capabilities.event_types
    case "target":
      return (capabilities) => capabilities.targets
    default:
      return undefined
  }
}

/** Whether the registry offers one capability as `require` names it (`search`, `version:2026-10-09`, …); unknown names are not offered. */
const offers = (capabilities: Omit<Capabilities, "requirements">, requirement: string): boolean => {
  const colon = requirement.indexOf(":")
  if (colon === -1) return (capabilities.features as Record<string, boolean>)[requirement] === true
  const values = listed(requirement.slice(0, colon))
  return values !== undefined && values(capabilities).includes(requirement.slice(colon + 1))
}

/** `require`'s comma list, each named once, in order. */
export const requirementsOf = (require: string | undefined): ReadonlyArray<string> =>
  require === undefined ? [] : [...new Set(require.split(",").map((item) => item.trim()).filter((item) => item !== ""))]

/** The required capabilities the registry does not offer. */
export const missingOf = (capabilities: Omit<Capabilities, "requirements">, required: ReadonlyArray<string>) =>
  required.filter((requirement) => !offers(capabilities, requirement))
