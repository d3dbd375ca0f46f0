import { decodeEncryptionKey, type EncryptionKey } from "@platform/crypto"
import { DatabaseConfig } from "@platform/database"
import { originConfig, ServiceConfig, type ServiceSettings } from "@platform/service"
import { Config, ConfigError, Context, Effect, Either, Layer, Option, Redacted } from "effect"
import { developmentKeyFile } from "./developmentKeyFile.ts"
import { LIFETIME_OVERRIDES } from "./lifetimes.ts"

/** Everything the IAM service reads from its environment, validated at start: the shared settings and its own. */
export interface IamSettings extends ServiceSettings {
  /** The accounts service IAM resolves and creates identities at (IAM_ACCOUNTS_URL). */
  readonly accountsUrl: string
  /** The bearer of accounts' internal routes (IAM_ACCOUNTS_INTERNAL_TOKEN, accounts' ACCOUNTS_INTERNAL_TOKEN). */
  readonly accountsToken: Option.Option<Redacted.Redacted<string>>
  /**
   * IAM_SECRET_KEY (base64 of 32 bytes): the key of the Silicon tokens' keyed digest and of the
   * `iam_session` cookie's signature. Development without it: generated once into `<data dir>/secret.key`.
   */
  readonly secretKey: EncryptionKey
  /**
   * The phone verification provider (a Twilio Verify-style REST service) that sends and checks phone
   * codes. None: development's own provider writes each code to the mailbox; production needs one.
   */
  readonly phoneVerification: Option.Option<PhoneVerificationSettings>
}

/** IAM_PHONE_VERIFY_URL, _SERVICE_SID, _ACCOUNT_SID and _TOKEN: all four or none. */
export interface PhoneVerificationSettings {
  /** The provider's origin, e.g. https://verify.twilio.com */
  readonly url: string
  /** The verification service the codes are sent under (the path's `{sid}`). */
  readonly serviceSid: string
  /** HTTP Basic user name. */
  readonly accountSid: string
  /** HTTP Basic password. */
  readonly token: Redacted.Redacted<string>
}

export class IamConfig extends Context.Tag("iam/IamConfig")<IamConfig, IamSettings>() {}

const refuseLifetimeOverrides = Config.all(LIFETIME_OVERRIDES.map((name) => Config.option(Config.string(name)))).pipe(
  Config.mapOrFail((values) => {
    const set = LIFETIME_OVERRIDES.filter((_, index) => values[index] !== undefined && Option.isSome(values[index]))
    return set.length === 0
      ? Either.right(undefined)
      : Either.left(ConfigError.InvalidData([set[0] ?? "IAM"], "credential lifetimes are fixed by the specification and cannot be overridden"))
  })
)

const secretKey = (
  configured: Option.Option<Redacted.Redacted<string>>,
  environment: ServiceSettings["environment"],
  dataDir: string
): Either.Either<EncryptionKey, ConfigError.ConfigError> => {
  if (Option.isNone(configured) && environment === "production") {
    return Either.left(ConfigError.MissingData(["IAM_SECRET_KEY"], "production needs IAM_SECRET_KEY (base64 of 32 bytes)"))
  }
  const encoded = Option.getOrElse(configured, () => Redacted.make(developmentKeyFile(`${dataDir}/secret.key`)))
  return Either.mapLeft(
    Effect.runSync(Effect.either(decodeEncryptionKey(encoded))),
    (error) => ConfigError.InvalidData(["IAM_SECRET_KEY"], error.message)
  )
}

const PHONE_VERIFY_SETTINGS = [
  "IAM_PHONE_VERIFY_URL",
  "IAM_PHONE_VERIFY_SERVICE_SID",
  "IAM_PHONE_VERIFY_ACCOUNT_SID",
  "IAM_PHONE_VERIFY_TOKEN"
] as const

const phoneVerification = Config.all([
  Config.option(originConfig("IAM_PHONE_VERIFY_URL", "https://verify.twilio.com")),
  Config.option(Config.string("IAM_PHONE_VERIFY_SERVICE_SID")),
  Config.option(Config.string("IAM_PHONE_VERIFY_ACCOUNT_SID")),
  Config.option(Config.redacted("IAM_PHONE_VERIFY_TOKEN"))
]).pipe(
  Config.mapOrFail(([url, serviceSid, accountSid, token]) => {
    const values: ReadonlyArray<Option.Option<unknown>> = [url, serviceSid, accountSid, token]
    if (values.every((value) => Option.isNone(value))) return Either.right(Option.none<PhoneVerificationSettings>())
    if (Option.isSome(url) && Option.isSome(serviceSid) && Option.isSome(accountSid) && Option.isSome(token)) {
      return Either.right(Option.some({ url: url.value, serviceSid: serviceSid.value, accountSid: accountSid.value, token: token.value }))
    }
    const missing = PHONE_VERIFY_SETTINGS.filter((_, index) => Option.isNone(values[index]!))
    return Either.left(ConfigError.MissingData([missing[0]!], `the phone verification provider needs all of ${PHONE_VERIFY_SETTINGS.join(", ")}`))
  })
)

/** IAM's settings (IAM_PORT, IAM_ACCOUNTS_URL, …). */
export const iamSettings: Config.Config<IamSettings> = Config.all([
  ServiceConfig("IAM", { defaultPort: 4200 }),
  originConfig("IAM_ACCOUNTS_URL", "https://accounts.example.com").pipe(Config.withDefault("http://127.0.0.1:4100")),
  Config.option(Config.redacted("IAM_ACCOUNTS_INTERNAL_TOKEN")),
  Config.option(Config.redacted("IAM_SECRET_KEY")),
  DatabaseConfig({ prefix: "IAM_", service: "iam" }),
  phoneVerification,
  refuseLifetimeOverrides
]).pipe(
  Config.mapOrFail(([service, accountsUrl, accountsToken, configuredKey, database, phone]) => {
    if (Option.isNone(phone) && service.environment === "production") {
      return Either.left(ConfigError.MissingData([PHONE_VERIFY_SETTINGS[0]], "production needs a phone verification provider (IAM_PHONE_VERIFY_*)"))
    }
    return Either.map(
      secretKey(configuredKey, service.environment, database.dataDir),
      (key): IamSettings => ({ ...service, accountsUrl, accountsToken, secretKey: key, phoneVerification: phone })
    )
  })
)

export const IamConfigLive = Layer.effect(IamConfig, iamSettings)

/** The settings given as they are (tests). */
export const IamConfigOf = (settings: IamSettings) => Layer.succeed(IamConfig, settings)
