import { Config, ConfigError, Either, Option, Redacted } from "effect"

export type MailEnvironment = "development" | "production"

export interface MailSettings {
  /** SMTP server for email; none means the development mailbox. */
  readonly smtpUrl: Option.Option<Redacted.Redacted<string>>
  readonly from: string
  readonly environment: MailEnvironment
}

export const DEFAULT_MAIL_FROM = "no-reply@localhost"

/** Checks the URL's form without ever echoing it: it may hold a password. */
const smtpUrl = (name: string) =>
  Config.redacted(name).pipe(
    Config.mapOrFail((url) => {
      try {
        const parsed = new URL(Redacted.value(url))
        if ((parsed.protocol === "smtp:" || parsed.protocol === "smtps:") && parsed.hostname !== "") {
          return Either.right(url)
        }
      } catch {
        // fall through to the refusal
      }
      return Either.left(
        ConfigError.InvalidData([name], "must be a URL such as smtp://user:password@mail.example.com:587 or smtps://…:465")
      )
    })
  )

/**
 * `<prefix>SMTP_URL` (optional), `<prefix>MAIL_FROM` (default no-reply@localhost)
 * and `<prefix>ENVIRONMENT` (development or production). Production refuses to
 * start without SMTP: its sign-in codes must not end up in a file on the server.
 */
export const mailSettings = (prefix: string): Config.Config<MailSettings> =>
  Config.all({
    smtpUrl: Config.option(smtpUrl(`${prefix}SMTP_URL`)),
    from: Config.string(`${prefix}MAIL_FROM`).pipe(
      Config.withDefault(DEFAULT_MAIL_FROM),
      Config.validate({ message: "must contain an email address", validation: (from) => from.includes("@") })
    ),
    environment: Config.literal("development", "production")(`${prefix}ENVIRONMENT`).pipe(
      Config.withDefault<MailEnvironment>("development")
    )
  }).pipe(
    Config.mapOrFail((settings) =>
      settings.environment === "production" && Option.isNone(settings.smtpUrl)
        ? Either.left(
          ConfigError.MissingData(
            [`${prefix}SMTP_URL`],
            `${prefix}SMTP_URL is required when ${prefix}ENVIRONMENT=production (the development mailbox is not used in production)`
          )
        )
        : Either.right(settings)
    )
  )
