import type { ApiVersioning } from "@platform/http"

/** Dated API versions IAM serves (spec 2 leaves IAM versioning open: decisions.md, "API versions"). */
export const iamVersioning: ApiVersioning = {
  header: "Iam-Version",
  supported: ["2026-11-01"],
  current: "2026-11-01",
  prefixes: ["/api/v1", "/openapi.json"]
}

/** The service's own release, reported by GET /api/v1/meta. */
export const SERVICE_VERSION = "0.1.0"
