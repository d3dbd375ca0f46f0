import { HttpServerResponse } from "@effect/platform"
import type { PublicDocument } from "@platform/http"
import { SigningKeys } from "@platform/signing-keys"
import { Effect } from "effect"
import { AccountsApi } from "../api.ts"
import { AccountsConfig } from "../config.ts"
import { discoveryDocuments, OPENID_CONFIGURATION_PATH } from "./DiscoveryDocuments.ts"
import { compiledGroup } from "@platform/service"

const respond = (document: PublicDocument) =>
  Effect.sync(() =>
    HttpServerResponse.text(document.json(), { contentType: "application/json", headers: document.headers })
  )

/** The discovery document and the JWKS of this server's issuer and keys. */
const ourDocuments = Effect.gen(function*() {
  const config = yield* AccountsConfig
  return discoveryDocuments(config.publicUrl, yield* SigningKeys)
})

/**
 * The same documents the server answers from memory before the Effect
 * runtime (see discoveryFromMemory); these handlers serve the requests that path
 * passes on (query strings, HEAD through proxies, …) and define the contract.
 */
export const DiscoveryLive = compiledGroup(AccountsApi, "discovery", (handlers) =>
  Effect.map(ourDocuments, (documents) =>
    handlers
      .handle("openidConfiguration", () => respond(documents.openIdConfiguration))
      .handle("jwks", () => respond(documents.jwks))))

/** For serveHttpApi: the documents it answers from memory, and the home page's link to discovery. */
export const discoveryFromMemory = Effect.map(ourDocuments, (documents) => ({
  publicDocuments: [documents.openIdConfiguration, documents.jwks],
  links: [{ href: OPENID_CONFIGURATION_PATH, label: "OpenID Connect discovery" }]
}))
