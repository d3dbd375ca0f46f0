import type { ApiVersioning } from "@platform/http"
import { UnsupportedApiVersion } from "./errors.ts"

/** The registry's dated API versions (spec 2, Versioning): every response names the one used. */
export const registryVersioning: ApiVersioning = {
  header: "Apps-Version",
  supported: ["2026-10-09"],
  current: "2026-10-09",
  prefixes: ["/"],
  preferenceList: true,
  unsupported: UnsupportedApiVersion
}

/** The service's own release, reported by GET /health. */
export const SERVICE_VERSION = "0.1.2"
