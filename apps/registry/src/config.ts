import { DatabaseConfig } from "@platform/database"
import { originConfig, ServiceConfig, type ServiceSettings } from "@platform/service"
import { Config, ConfigError, Context, Either, Layer, Option, type Redacted } from "effect"

/** Everything the registry reads from its environment, validated at start: the shared settings and its own. */
export interface RegistrySettings extends ServiceSettings {
  /** The accounts service (REGISTRY_ACCOUNTS_URL): its internal routes and lookups. */
  readonly accountsUrl: string
  /** The issuer of the account tokens the registry accepts (REGISTRY_ACCOUNTS_ISSUER, default the accounts URL). */
  readonly accountsIssuer: string
  /** The bearer of accounts' internal routes (REGISTRY_ACCOUNTS_INTERNAL_TOKEN, accounts' ACCOUNTS_INTERNAL_TOKEN). */
  readonly accountsToken: Option.Option<Redacted.Redacted<string>>
  /** The audience an account token must name to be used here (REGISTRY_AUDIENCE, default `registry`). */
  readonly audience: string
  /**
   * REGISTRY_DEVELOPMENT_BEARER=true: `Authorization: Bearer dev.<account uuid>` is accepted as that account.
   * Local development only: refused at start in production.
   */
  readonly developmentBearer: boolean
  /** Requests per minute per client: 600 reads and 120 writes (spec 2); REGISTRY_READS_PER_MINUTE and _WRITES_ for load tests. */
  readonly rateLimits: { readonly readsPerMinute: number; readonly writesPerMinute: number }
  readonly sandbox: {
    /**
     * REGISTRY_SANDBOX: `auto` (default) validates packages in bubblewrap when it runs on this host; `off` never
     * does (uploads answer 503 runner_unavailable, targets say runner_available false).
     */
    readonly mode: "auto" | "off"
    /** REGISTRY_SANDBOX_COMMAND_SECONDS: wall-clock time of each validation command, 1 to 15 (default 10; three fit in the upload's 60 s). */
    readonly commandSeconds: number
  }
}

export class RegistryConfig extends Context.Tag("registry/RegistryConfig")<RegistryConfig, RegistrySettings>() {}

/** The registry's settings (REGISTRY_PORT, REGISTRY_ACCOUNTS_URL, …). */
export const registrySettings: Config.Config<RegistrySettings> = Config.all([
  ServiceConfig("REGISTRY", { defaultPort: 4300 }),
  originConfig("REGISTRY_ACCOUNTS_URL", "https://accounts.example.com").pipe(Config.withDefault("http://127.0.0.1:4100")),
  Config.option(originConfig("REGISTRY_ACCOUNTS_ISSUER", "https://accounts.example.com")),
  Config.option(Config.redacted("REGISTRY_ACCOUNTS_INTERNAL_TOKEN")),
  Config.string("REGISTRY_AUDIENCE").pipe(Config.withDefault("registry")),
  Config.boolean("REGISTRY_DEVELOPMENT_BEARER").pipe(Config.withDefault(false)),
  Config.integer("REGISTRY_READS_PER_MINUTE").pipe(Config.withDefault(600), Config.validate({ message: "at least 1", validation: (n) => n >= 1 })),
  Config.integer("REGISTRY_WRITES_PER_MINUTE").pipe(Config.withDefault(120), Config.validate({ message: "at least 1", validation: (n) => n >= 1 })),
  Config.literal("auto", "off")("REGISTRY_SANDBOX").pipe(Config.withDefault("auto" as const)),
  Config.integer("REGISTRY_SANDBOX_COMMAND_SECONDS").pipe(
    Config.withDefault(10),
    Config.validate({ message: "1 to 15", validation: (n) => n >= 1 && n <= 15 })
  ),
  DatabaseConfig({ prefix: "REGISTRY_", service: "registry" })
]).pipe(
  Config.mapOrFail(([service, accountsUrl, issuer, accountsToken, audience, developmentBearer, readsPerMinute, writesPerMinute, sandbox, commandSeconds]) =>
    developmentBearer && service.environment === "production"
      ? Either.left(
        ConfigError.InvalidData(["REGISTRY_DEVELOPMENT_BEARER"], "the development bearer is for local development only, never production")
      )
      : Either.right({
        ...service,
        accountsUrl,
        accountsIssuer: Option.getOrElse(issuer, () => accountsUrl),
        accountsToken,
        audience,
        developmentBearer,
        rateLimits: { readsPerMinute, writesPerMinute },
        sandbox: { mode: sandbox, commandSeconds }
      })
  )
)

export const RegistryConfigLive = Layer.effect(RegistryConfig, registrySettings)

/** The settings given as they are (tests). */
export const RegistryConfigOf = (settings: RegistrySettings) => Layer.succeed(RegistryConfig, settings)
