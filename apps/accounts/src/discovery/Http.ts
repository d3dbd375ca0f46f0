import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { SigningKeys } from "@platform/signing-keys"
import { Effect } from "effect"
import { AccountsApi } from "../api.ts"
import { AccountsConfig } from "../config.ts"
import { openIdConfiguration } from "./OpenIdConfiguration.ts"

/** Discovery documents are cacheable by anyone for the spec's 5 minutes. */
const PUBLIC_DOCUMENT = {
  "access-control-allow-origin": "*",
  "cache-control": "public, max-age=300"
} as const

// Both documents are served as pre-serialized JSON: they are the hottest public routes.
const json = (body: string) =>
  HttpServerResponse.text(body, { contentType: "application/json", headers: PUBLIC_DOCUMENT })

export const DiscoveryLive = HttpApiBuilder.group(AccountsApi, "discovery", (handlers) =>
  Effect.gen(function*() {
    const config = yield* AccountsConfig
    const keys = yield* SigningKeys
    const discovery = JSON.stringify(openIdConfiguration(config.publicUrl))
    return handlers
      .handle("openidConfiguration", () => Effect.succeed(json(discovery)))
      .handle("jwks", () => Effect.map(keys.jwksJson, json))
  }))
