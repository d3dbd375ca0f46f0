import { checkP256PrivateKey } from "@platform/crypto"
import { originConfig, ServiceConfig, type ServiceSettings } from "@platform/service"
import { Config, ConfigError, Context, Effect, Either, Layer, Option, Redacted } from "effect"
import { readFileSync } from "node:fs"

/** The deployment's own client at an identity provider (managed mode). */
export interface ProviderClientSettings {
  readonly clientId: string
  readonly clientSecret: Redacted.Redacted<string>
}

/** An identity provider: its issuer, and the deployment's client when one is configured. */
export interface ProviderSettings<Client> {
  readonly issuer: string
  /** None: the managed provider is not configured here (apps in byo mode still bring their own client). */
  readonly client: Option.Option<Client>
}

/** idp_a, an OpenID Connect provider. */
export type IdpASettings = ProviderSettings<ProviderClientSettings>

export const IDP_A_DEFAULT_ISSUER = "https://accounts.google.com"

/** The deployment's own idp_b client (managed mode): its client secrets are JWTs it signs with its key. */
export interface IdpBClientSettings {
  /** The services id, which is the client id. */
  readonly servicesId: string
  readonly teamId: string
  readonly keyId: string
  /** PKCS#8 PEM of a P-256 private key. */
  readonly privateKey: Redacted.Redacted<string>
}

/** idp_b, an OpenID provider answering by form_post (Apple-like). */
export type IdpBSettings = ProviderSettings<IdpBClientSettings>

export const IDP_B_DEFAULT_ISSUER = "https://appleid.apple.com"

/** Everything the accounts service reads from its environment, validated at start: the shared settings and its own. */
export interface AccountsSettings extends ServiceSettings {
  readonly appsUrl: string
  readonly webhookAllowLoopback: boolean
  /**
   * Development only (ACCOUNTS_ISSUER_CA_FILE): PEM certificates trusted for outside issuers' https
   * besides the system's roots, so that a local or test issuer with its own CA can be used.
   */
  readonly issuerExtraCa: Option.Option<string>
  /** How soon a key rotated by another process (the operator command) is used here. */
  readonly keysRefreshSeconds: number
  /** Event streams open at once in this process (spec 1, Limits: 500 per server). */
  readonly streamsPerServer: number
  /** How long a CSV import waits for one of the server's 2 parse slots before 503 imports_busy (spec 1: 30 seconds). */
  readonly importWaitSeconds: number
  /** Time budget of one CSV import request (spec 1: 5 minutes). */
  readonly importTimeBudgetSeconds: number
  readonly idpA: IdpASettings
  readonly idpB: IdpBSettings
}

export class AccountsConfig extends Context.Tag("accounts/AccountsConfig")<AccountsConfig, AccountsSettings>() {}

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

const issuerSetting = (name: string, fallback: string) =>
  Config.string(name).pipe(
    // Checked before the default applies, so that a refusal names the variable.
    Config.mapOrFail((value) => Either.mapLeft(asIssuer(value), (message) => ConfigError.InvalidData([], message))),
    Config.withDefault(fallback)
  )

/** A team or key id of idp_b: 10 upper-case letters or digits. */
const idpBId = (name: string) =>
  Config.string(name).pipe(
    Config.validate({ message: "must be 10 upper-case letters or digits", validation: (value) => /^[A-Z0-9]{10}$/.test(value) })
  )

const IDP_B_CLIENT = ["SERVICES_ID", "TEAM_ID", "KEY_ID", "PRIVATE_KEY"] as const

/** Accounts' own settings, under ACCOUNTS_ like the shared ones. */
const ownSettings = Config.all({
  appsUrl: originConfig("APPS_URL", "https://accounts.example.com").pipe(Config.withDefault("http://127.0.0.1:4300")),
  webhookAllowLoopback: Config.boolean("WEBHOOK_ALLOW_LOOPBACK").pipe(Config.withDefault(false)),
  issuerExtraCa: Config.option(Config.string("ISSUER_CA_FILE").pipe(
    Config.mapOrFail((path) =>
      Either.try({
        try: () => readFileSync(path, "utf8"),
        catch: () => ConfigError.InvalidData(["ISSUER_CA_FILE"], `cannot read the file ${path}`)
      })
    ),
    Config.validate({ message: "must hold PEM certificates", validation: (pem) => pem.includes("-----BEGIN CERTIFICATE-----") })
  )),
  // Validated before the default applies, so that a refusal names the variable.
  keysRefreshSeconds: Config.integer("KEYS_REFRESH_SECONDS").pipe(
    Config.validate({ message: "must be between 1 and 60", validation: (n) => n >= 1 && n <= 60 }),
    Config.withDefault(10)
  ),
  streamsPerServer: Config.integer("STREAMS_PER_SERVER").pipe(
    Config.validate({ message: "must be between 1 and 100000", validation: (n) => n >= 1 && n <= 100_000 }),
    Config.withDefault(500)
  ),
  importWaitSeconds: Config.integer("IMPORT_WAIT_SECONDS").pipe(
    Config.validate({ message: "must be between 1 and 300", validation: (n) => n >= 1 && n <= 300 }),
    Config.withDefault(30)
  ),
  importTimeBudgetSeconds: Config.integer("IMPORT_TIME_BUDGET_SECONDS").pipe(
    Config.validate({ message: "must be between 1 and 3600", validation: (n) => n >= 1 && n <= 3600 }),
    Config.withDefault(300)
  ),
  idpAIssuer: issuerSetting("IDP_A_ISSUER", IDP_A_DEFAULT_ISSUER),
  idpAClientId: Config.option(Config.string("IDP_A_CLIENT_ID")),
  idpAClientSecret: Config.option(Config.redacted("IDP_A_CLIENT_SECRET")),
  idpBIssuer: issuerSetting("IDP_B_ISSUER", IDP_B_DEFAULT_ISSUER),
  idpBServicesId: Config.option(Config.string("IDP_B_SERVICES_ID").pipe(
    Config.validate({
      message: "must be 1 to 255 letters, digits, dots or hyphens",
      validation: (value) => /^[A-Za-z0-9.-]{1,255}$/.test(value)
    })
  )),
  idpBTeamId: Config.option(idpBId("IDP_B_TEAM_ID")),
  idpBKeyId: Config.option(idpBId("IDP_B_KEY_ID")),
  idpBPrivateKey: Config.option(Config.redacted("IDP_B_PRIVATE_KEY").pipe(
    // The message never carries the key; the canonical PKCS#8 form is kept.
    Config.mapOrFail((key) =>
      Either.mapBoth(checkP256PrivateKey(Redacted.value(key)), {
        onLeft: (message) => ConfigError.InvalidData(["IDP_B_PRIVATE_KEY"], message),
        onRight: Redacted.make
      })
    )
  ))
}).pipe(Config.nested("ACCOUNTS"))

/** A refusal of the checks below, which see both halves: the halves are read apart, so it names the full variable. */
const invalid = (name: string, message: string) => ConfigError.InvalidData(["ACCOUNTS", name], message)

export const accountsSettings: Config.Config<AccountsSettings> = Config.all([
  ServiceConfig("ACCOUNTS", { defaultPort: 4100 }),
  ownSettings
]).pipe(
  Config.mapOrFail(([service, raw]) => {
    if (service.environment === "production" && raw.webhookAllowLoopback) {
      return Either.left(invalid("WEBHOOK_ALLOW_LOOPBACK", "is a development-only setting"))
    }
    if (service.environment === "production" && Option.isSome(raw.issuerExtraCa)) {
      return Either.left(invalid("ISSUER_CA_FILE", "is a development-only setting"))
    }
    if (service.environment === "production" && new URL(raw.idpAIssuer).protocol !== "https:") {
      return Either.left(invalid("IDP_A_ISSUER", "must be an https URL in production"))
    }
    if (Option.isSome(raw.idpAClientId) !== Option.isSome(raw.idpAClientSecret)) {
      return Either.left(invalid("IDP_A_CLIENT_ID", "must be set together with ACCOUNTS_IDP_A_CLIENT_SECRET"))
    }
    if (service.environment === "production" && new URL(raw.idpBIssuer).protocol !== "https:") {
      return Either.left(invalid("IDP_B_ISSUER", "must be an https URL in production"))
    }
    const idpBSet: ReadonlyArray<boolean> = [
      Option.isSome(raw.idpBServicesId),
      Option.isSome(raw.idpBTeamId),
      Option.isSome(raw.idpBKeyId),
      Option.isSome(raw.idpBPrivateKey)
    ]
    if (idpBSet.includes(true) && idpBSet.includes(false)) {
      const missing = IDP_B_CLIENT.filter((_, i) => !idpBSet[i]).map((name) => `ACCOUNTS_IDP_B_${name}`)
      return Either.left(
        invalid("IDP_B_SERVICES_ID", `must be set together with the other idp_b settings (missing ${missing.join(", ")})`)
      )
    }
    if (service.environment === "production" && Option.isNone(service.keyEncryptionKey)) {
      return Either.left(invalid(
        "KEY_ENCRYPTION_KEY",
        "is required in production: signing keys, webhook secrets, identity-provider credentials and stored answers carrying tokens are sealed with it"
      ))
    }
    const { idpAClientId, idpAClientSecret, idpAIssuer, idpBIssuer, idpBKeyId, idpBPrivateKey, idpBServicesId, idpBTeamId, ...settings } =
      raw
    return Either.right({
      ...service,
      ...settings,
      idpA: {
        issuer: idpAIssuer,
        client: Option.zipWith(idpAClientId, idpAClientSecret, (clientId, clientSecret) => ({ clientId, clientSecret }))
      },
      idpB: {
        issuer: idpBIssuer,
        client: Option.all({ servicesId: idpBServicesId, teamId: idpBTeamId, keyId: idpBKeyId, privateKey: idpBPrivateKey })
      }
    })
  })
)

export const AccountsConfigLive = Layer.effect(AccountsConfig, Effect.suspend(() => accountsSettings))

/** For tests and tools that build the service with known settings. */
export const AccountsConfigOf = (settings: AccountsSettings) => Layer.succeed(AccountsConfig, settings)
