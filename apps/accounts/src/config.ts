import { Config, ConfigError, Context, Effect, Either, Layer, Option, type Redacted } from "effect"

export type Environment = "development" | "production"

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
  )
}).pipe(
  Config.nested("ACCOUNTS"),
  Config.mapOrFail((raw) => {
    if (raw.environment === "production" && raw.webhookAllowLoopback) {
      return Either.left(
        ConfigError.InvalidData(["WEBHOOK_ALLOW_LOOPBACK"], "is a development-only setting")
      )
    }
    return Either.right({
      ...raw,
      publicUrl: Option.getOrElse(raw.publicUrl, () => `http://127.0.0.1:${raw.port}`)
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
