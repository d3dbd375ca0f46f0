import { decodeEncryptionKey } from "@platform/crypto"
import { Config, ConfigError, Effect, Either, Option, type Redacted } from "effect"

export type Environment = "development" | "production"

/** What every service reads from its environment (`<PREFIX>_PORT`, `<PREFIX>_HOST`, …), validated at start. */
export interface ServiceSettings {
  readonly port: number
  readonly host: string
  /** The public origin (for a service that issues tokens, also the issuer). */
  readonly publicUrl: string
  readonly environment: Environment
  /** Take the client address from the right-most `X-Forwarded-For` entry. */
  readonly trustProxy: boolean
  /** Bearer of the internal routes other services call; none disables them. */
  readonly internalToken: Option.Option<Redacted.Redacted<string>>
  /** Base64 of 32 bytes; private keys are stored encrypted with it when set. */
  readonly keyEncryptionKey: Option.Option<Redacted.Redacted<string>>
  /** On SIGTERM, how long requests in flight may take before connections are closed. */
  readonly drainSeconds: number
}

const asOrigin = (value: string, example: string): Either.Either<string, string> => {
  try {
    const url = new URL(value)
    if ((url.protocol === "http:" || url.protocol === "https:") && url.pathname === "/" && !url.search && !url.hash) {
      return Either.right(url.origin)
    }
  } catch {
    // fall through to the refusal
  }
  return Either.left(`must be an http(s) origin such as ${example}, got ${JSON.stringify(value)}`)
}

/** An http(s) origin (no path, query or fragment), normalized; `example` shows a good value in the refusal. */
export const originConfig = (name: string, example: string): Config.Config<string> =>
  Config.string(name).pipe(
    Config.mapOrFail((value) => Either.mapLeft(asOrigin(value, example), (message) => ConfigError.InvalidData([], message)))
  )

/** Checked here, before anything starts, though only the layer that encrypts decodes it. */
const encryptionKeyConfig = (name: string) =>
  Config.redacted(name).pipe(
    Config.mapOrFail((key) =>
      Either.mapBoth(Effect.runSync(Effect.either(decodeEncryptionKey(key))), {
        // Named here: a check on a redacted setting does not carry the setting's name by itself.
        onLeft: (error) => ConfigError.InvalidData([name], error.message.replace(/^encryption key /, "")),
        onRight: () => key
      })
    )
  )

/**
 * The settings every service shares, read under `prefix` (`ServiceConfig("ACCOUNTS", { defaultPort: 4100 })`
 * reads `ACCOUNTS_PORT`, …). The public URL defaults to `http://127.0.0.1:<port>`.
 */
export const ServiceConfig = (
  prefix: string,
  options: { readonly defaultPort: number }
): Config.Config<ServiceSettings> =>
  Config.all({
    port: Config.port("PORT").pipe(Config.withDefault(options.defaultPort)),
    host: Config.string("HOST").pipe(Config.withDefault("127.0.0.1")),
    publicUrl: Config.option(originConfig("PUBLIC_URL", `https://${prefix.toLowerCase()}.example.com`)),
    environment: Config.literal("development", "production")("ENVIRONMENT").pipe(
      Config.withDefault<Environment>("development")
    ),
    trustProxy: Config.boolean("TRUST_PROXY").pipe(Config.withDefault(false)),
    internalToken: Config.option(Config.redacted("INTERNAL_TOKEN")),
    keyEncryptionKey: Config.option(encryptionKeyConfig("KEY_ENCRYPTION_KEY")),
    // Validated before the default applies, so that a refusal names the variable.
    drainSeconds: Config.integer("DRAIN_SECONDS").pipe(
      Config.validate({ message: "must be between 0 and 300", validation: (n) => n >= 0 && n <= 300 }),
      Config.withDefault(10)
    )
  }).pipe(
    Config.nested(prefix),
    Config.map((settings) => ({
      ...settings,
      publicUrl: Option.getOrElse(settings.publicUrl, () => `http://127.0.0.1:${settings.port}`)
    }))
  )
