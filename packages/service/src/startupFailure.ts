import { HttpServerError } from "@effect/platform"
import { DatabaseError } from "@platform/database"
import { ConfigError } from "effect"
import { describeConfigError } from "./describeConfigError.ts"

export interface StartingService {
  /** `accounts` */
  readonly name: string
  /** The environment prefix without its underscore: `ACCOUNTS`. */
  readonly prefix: string
  /** Whether `<PREFIX>_DATABASE_URL` names a PostgreSQL server (else the embedded database is used). */
  readonly databaseUrlSet: boolean
}

/** The error's own system code (`EADDRINUSE`, `ECONNREFUSED`), looked for through its causes. */
const systemCode = (error: unknown): string | undefined => {
  if (error instanceof AggregateError) return error.errors.map(systemCode).find((code) => code !== undefined)
  if (typeof error !== "object" || error === null) return undefined
  if ("code" in error && typeof error.code === "string" && /^E[A-Z]+$/.test(error.code)) return error.code
  return "cause" in error ? systemCode(error.cause) : undefined
}

const listenFailure = (cause: unknown, service: StartingService): string => {
  const where = cause as { readonly address?: unknown; readonly port?: unknown; readonly message?: unknown }
  if (systemCode(cause) === "EADDRINUSE") {
    return `port ${String(where.port)} on ${String(where.address)} is in use ` +
      `(another ${service.name} running? set ${service.prefix}_PORT)`
  }
  return `cannot listen: ${String(where.message ?? cause)} (check ${service.prefix}_HOST and ${service.prefix}_PORT)`
}

const databaseFailure = (error: DatabaseError, service: StartingService): string => {
  if (!service.databaseUrlSet) return `${error.message} (the embedded database; check ${service.prefix}_DATA_DIR)`
  const unreachable = systemCode(error.cause) !== undefined
  return `${error.message} (${unreachable ? "is PostgreSQL running there? " : ""}check ${service.prefix}_DATABASE_URL)`
}

/**
 * The one line (without the service's name) a person reads when the service
 * cannot start for a reason they can fix: a wrong setting, a port already
 * taken, a database it cannot reach. Undefined for anything else.
 */
export const describeStartupFailure = (error: unknown, service: StartingService): string | undefined => {
  if (ConfigError.isConfigError(error)) return `configuration error: ${describeConfigError(error)}`
  if (error instanceof HttpServerError.ServeError) return listenFailure(error.cause, service)
  if (error instanceof DatabaseError) return databaseFailure(error, service)
  return undefined
}
