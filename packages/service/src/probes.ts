import { HttpApiEndpoint, OpenApi } from "@effect/platform"
import { Database } from "@platform/database"
import { errorResponse, ServiceUnavailable } from "@platform/http"
import { Effect, Schema } from "effect"

export const Health = Schema.Struct({ status: Schema.Literal("ok") }).annotations({ identifier: "Health" })

/** `GET /healthz`, every service's liveness probe: add it to the service's own group. */
export const healthzEndpoint = HttpApiEndpoint.get("healthz", "/healthz")
  .addSuccess(Health)
  .annotate(OpenApi.Description, "Liveness: the process answers. Served only on the API address.")

/** `GET /readyz`, every service's readiness probe: add it to the service's own group. */
export const readyzEndpoint = HttpApiEndpoint.get("readyz", "/readyz")
  .addSuccess(Health)
  .addError(errorResponse(ServiceUnavailable))
  .annotate(OpenApi.Description, "Readiness: 503 while the database is unreachable.")

/** The answer of `healthz`. */
export const alive = Effect.succeed({ status: "ok" as const })

/** The answer of `readyz`: ok once the database answers within its deadline. */
export const ready = Database.ping.pipe(
  Effect.as({ status: "ok" as const }),
  Effect.mapError(() => new ServiceUnavailable({ message: "The database is unreachable; this process is not ready." }))
)
