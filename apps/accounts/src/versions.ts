import type { ApiVersioning } from "@platform/http"

/** Dated API versions this deployment serves (spec 1, Versioning). */
export const accountsVersioning: ApiVersioning = {
  header: "Accounts-Version",
  supported: ["2026-10-01"],
  current: "2026-10-01",
  prefixes: ["/v1", "/.well-known", "/openapi.json"]
}

/** The service's own release, reported by GET /v1/meta. */
export const SERVICE_VERSION = "0.1.0"
