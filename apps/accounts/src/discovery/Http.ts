import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import type { PublicDocument } from "@platform/http"
import { SigningKeys } from "@platform/signing-keys"
import { Effect } from "effect"
import { AccountsApi } from "../api.ts"
import { AccountsConfig } from "../config.ts"
import { discoveryDocuments } from "./DiscoveryDocuments.ts"

const respond = (document: PublicDocument) =>
  Effect.sync(() =>
    HttpServerResponse.text(document.json(), { contentType: "application/json", headers: document.headers })
  )

/**
 * The same documents the server answers from memory before the Effect
 * runtime (see server.ts); these handlers serve the requests that path
 * passes on (query strings, HEAD through proxies, …) and define the contract.
 */
export const DiscoveryLive = HttpApiBuilder.group(AccountsApi, "discovery", (handlers) =>
  Effect.gen(function*() {
    const config = yield* AccountsConfig
    const documents = discoveryDocuments(config.publicUrl, yield* SigningKeys)
    return handlers
      .handle("openidConfiguration", () => respond(documents.openIdConfiguration))
      .handle("jwks", () => respond(documents.jwks))
  }))
