import { Config, ConfigError, Context, Effect, Either, Layer, Option, type Redacted } from "effect"

export type Environment = "development" | "production"

/** The deployment's own client at an identity provider (managed mode). */
export interface ProviderClientSettings {
  readonly clientId: string
  readonly clientSecret: Redacted.Redacted<string>
}

/** idp_a, an OpenID Connect provider: its issuer, and the deployment's client when one is configured. */
export interface IdpASettings {
  readonly issuer: string
  /** None: managed idp_a is not configured here (apps in byo mode still bring their own client). */
  readonly client: Option.Option<ProviderClientSettings>
}

export const IDP_A_DEFAULT_ISSUER = "https://accounts.google.com"

/** Everything the accounts service reads from its environment, validated at start. */
export interface AccountsSettings {
  readonly port: number
  readonly host: string
  /** The public origin, which is also the token issuer. */
  readonly publicUrl: string
  readonly appsUrl: string
  readonly environment: Environment
  readonly trustProxy: boolean
  readonly webhookAllowLoopback: boolean
  readonly internalToken: Option.Option<Redacted.Redacted<string>>
  readonly keyEncryptionKey: Option.Option<Redacted.Redacted<string>>
  readonly drainSeconds: number
  /** How soon a key rotated by another process (the operator command) is used here. */
  readonly keysRefreshSeconds: number
  readonly idpA: IdpASettings
}

export class AccountsConfig extends Context.Tag("accounts/AccountsConfig")<AccountsConfig, AccountsSettings>() {}

const asOrigin = (value: string): Either.Either<string, string> => {
  try {
    const url = new URL(value)
    if ((url.protocol === "http:" || url.protocol === "https:") && url.pathname === "/" && !url.search && !url.hash) {
      return Either.right(url.origin)
    }
  } catch {
    // fall through to the refusal
  }
  return Either.left(`must be an http(s) origin such as https://accounts.example.com, got ${JSON.stringify(value)}`)
}

/** An issuer URL: https, or http in development only (checked with the environment below). */
const asIssuer = (value: string): Either.Either<string, string> => {
  try {
    const url = new URL(value)
    if ((url.protocol === "http:" || url.protocol === "https:") && !url.search && !url.hash) return Either.right(value)
  } catch {
    // fall through to the refusal
  }
  return Either.left(`must be an http(s) issuer URL such as ${IDP_A_DEFAULT_ISSUER}, got ${JSON.stringify(value)}`)
}

const origin = (name: string) =>
  Config.string(name).pipe(
    Config.mapOrFail((value) => Either.mapLeft(asOrigin(value), (message) => ConfigError.InvalidData([], message)))
  )

export const accountsSettings: Config.Config<AccountsSettings> = Config.all({
  port: Config.port("PORT").pipe(Config.withDefault(4100)),
  host: Config.string("HOST").pipe(Config.withDefault("127.0.0.1")),
  publicUrl: Config.option(origin("PUBLIC_URL")),
  appsUrl: origin("APPS_URL").pipe(Config.withDefault("http://127.0.0.1:4300")),
  environment: Config.literal("development", "production")("ENVIRONMENT").pipe(
    Config.withDefault<Environment>("development")
  ),
  trustProxy: Config.boolean("TRUST_PROXY").pipe(Config.withDefault(false)),
  webhookAllowLoopback: Config.boolean("WEBHOOK_ALLOW_LOOPBACK").pipe(Config.withDefault(false)),
  internalToken: Config.option(Config.redacted("INTERNAL_TOKEN")),
  keyEncryptionKey: Config.option(Config.redacted("KEY_ENCRYPTION_KEY")),
  drainSeconds: Config.integer("DRAIN_SECONDS").pipe(
    Config.withDefault(10),
    Config.validate({ message: "must be between 0 and 300", validation: (n) => n >= 0 && n <= 300 })
  ),
  keysRefreshSeconds: Config.integer("KEYS_REFRESH_SECONDS").pipe(
    Config.withDefault(10),
    Config.validate({ message: "must be between 1 and 60", validation: (n) => n >= 1 && n <= 60 })
  ),
  idpAIssuer: Config.string("IDP_A_ISSUER").pipe(
    Config.withDefault(IDP_A_DEFAULT_ISSUER),
    Config.mapOrFail((value) => Either.mapLeft(asIssuer(value), (message) => ConfigError.InvalidData([], message)))
  ),
  idpAClientId: Config.option(Config.string("IDP_A_CLIENT_ID")),
  idpAClientSecret: Config.option(Config.redacted("IDP_A_CLIENT_SECRET"))
}).pipe(
  Config.nested("ACCOUNTS"),
  Config.mapOrFail((raw) => {
    if (raw.environment === "production" && raw.webhookAllowLoopback) {
      return Either.left(
        ConfigError.InvalidData(["WEBHOOK_ALLOW_LOOPBACK"], "is a development-only setting")
      )
    }
    if (raw.environment === "production" && new URL(raw.idpAIssuer).protocol !== "https:") {
      return Either.left(ConfigError.InvalidData(["IDP_A_ISSUER"], "must be an https URL in production"))
    }
    if (Option.isSome(raw.idpAClientId) !== Option.isSome(raw.idpAClientSecret)) {
      return Either.left(
        ConfigError.InvalidData(["IDP_A_CLIENT_ID"], "must be set together with ACCOUNTS_IDP_A_CLIENT_SECRET")
      )
    }
    const { idpAClientId, idpAClientSecret, idpAIssuer, ...settings } = raw
    return Either.right({
      ...settings,
      publicUrl: Option.getOrElse(raw.publicUrl, () => `http://127.0.0.1:${raw.port}`),
      idpA: {
        issuer: idpAIssuer,
        client: Option.zipWith(idpAClientId, idpAClientSecret, (clientId, clientSecret) => ({ clientId, clientSecret }))
      }
    })
  })
)

export const AccountsConfigLive = Layer.effect(AccountsConfig, Effect.suspend(() => accountsSettings))

/** For tests and tools that build the service with known settings. */
export const AccountsConfigOf = (settings: AccountsSettings) => Layer.succeed(AccountsConfig, settings)

/** One line naming each bad setting as its environment variable, e.g. `ACCOUNTS_PORT must be …`. */
export const describeConfigError = (error: ConfigError.ConfigError): string => {
  switch (error._op) {
    case "And":
    case "Or":
      return `${describeConfigError(error.left)}; ${describeConfigError(error.right)}`
    case "InvalidData":
    case "MissingData":
    case "SourceUnavailable":
    case "Unsupported":
      return `${error.path.join("_")} ${error.message.replace(/^Expected /, "must be ")}`
  }
}
