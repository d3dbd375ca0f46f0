import type { PublicDocument } from "@platform/http"
import type { SigningKeys } from "@platform/signing-keys"
import { openIdConfiguration } from "./OpenIdConfiguration.ts"

/** Public documents any origin may read and any cache may keep for the spec's 5 minutes. */
const PUBLIC_DOCUMENT_HEADERS = {
  "access-control-allow-origin": "*",
  "cache-control": "public, max-age=300"
} as const

export const OPENID_CONFIGURATION_PATH = "/.well-known/openid-configuration"
export const JWKS_PATH = "/.well-known/jwks.json"

/** The discovery document and the JWKS, pre-serialized: the one source for both ways they are served. */
export const discoveryDocuments = (
  issuer: string,
  keys: typeof SigningKeys.Service
): { readonly openIdConfiguration: PublicDocument; readonly jwks: PublicDocument } => {
  const configuration = JSON.stringify(openIdConfiguration(issuer))
  return {
    openIdConfiguration: {
      path: OPENID_CONFIGURATION_PATH,
      json: () => configuration,
      headers: PUBLIC_DOCUMENT_HEADERS
    },
    jwks: { path: JWKS_PATH, json: keys.currentJwksJson, headers: PUBLIC_DOCUMENT_HEADERS }
  }
}
