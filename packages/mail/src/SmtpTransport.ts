import { Effect, Layer, Redacted, type Scope } from "effect"
import nodemailer from "nodemailer"
import SMTPTransport from "nodemailer/lib/smtp-transport/index.js"
import { MessageTransport, type MessageTransportService } from "./MessageTransport.ts"
import { MessageTransportError } from "./MessageTransportError.ts"
import type { OutgoingMessage } from "./OutgoingMessage.ts"

export interface SmtpSettings {
  /** `smtp://user:password@host:587` (STARTTLS when offered) or `smtps://…:465`. */
  readonly url: Redacted.Redacted<string>
  /** The From header, e.g. `Accounts <no-reply@example.com>`. */
  readonly from: string
}

/** Bounds every send well inside the outbox's 60-second claim. */
const TIMEOUTS_MILLIS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 }

const MAX_REASON_LENGTH = 300

/** Replaces every occurrence of each secret with `***`. */
const scrub = (text: string, secrets: ReadonlyArray<string>): string =>
  secrets.filter((secret) => secret.length > 0).reduce((scrubbed, secret) => scrubbed.split(secret).join("***"), text)

const credentialsOf = (url: Redacted.Redacted<string>): ReadonlyArray<string> => {
  try {
    const parsed = new URL(Redacted.value(url))
    return [parsed.password, decodeURIComponent(parsed.password), parsed.username, decodeURIComponent(parsed.username)]
  } catch {
    return []
  }
}

const field = (error: unknown, name: string): string | undefined => {
  if (typeof error !== "object" || error === null || !(name in error)) return undefined
  const value: unknown = Reflect.get(error, name)
  return typeof value === "string" || typeof value === "number" ? String(value) : undefined
}

/** nodemailer's error code, the SMTP reply code and its message, without credentials or the message's code. */
const describeFailure = (error: unknown, secrets: ReadonlyArray<string>): string => {
  const labels = [field(error, "code"), field(error, "responseCode")].filter((label) => label !== undefined)
  const reason = scrub(error instanceof Error ? error.message : String(error), secrets).slice(0, MAX_REASON_LENGTH)
  return `SMTP delivery failed${labels.length > 0 ? ` (${labels.join(" ")})` : ""}: ${reason}`
}

/** Sends email through an SMTP server; closes its connections when the scope closes. */
export const makeSmtpTransport = (
  settings: SmtpSettings
): Effect.Effect<MessageTransportService, never, Scope.Scope> =>
  Effect.gen(function*() {
    const transporter = yield* Effect.acquireRelease(
      Effect.sync(() =>
        nodemailer.createTransport(new SMTPTransport({ url: Redacted.value(settings.url), ...TIMEOUTS_MILLIS }))
      ),
      (transporter) => Effect.sync(() => transporter.close())
    )
    const credentials = credentialsOf(settings.url)

    const send = (message: OutgoingMessage): Effect.Effect<void, MessageTransportError> =>
      message.channel !== "email"
        ? Effect.dieMessage(`SmtpTransport sends email only; it was given a message for the ${message.channel} channel`)
        : Effect.tryPromise({
          try: () => transporter.sendMail({ from: settings.from, to: message.to, subject: message.subject, text: message.text }),
          catch: (error) =>
            new MessageTransportError({
              message: describeFailure(error, message.code === null ? credentials : [...credentials, message.code])
            })
        }).pipe(Effect.asVoid)

    return { send }
  })

export const SmtpTransport = {
  layer: (settings: SmtpSettings): Layer.Layer<MessageTransport> =>
    Layer.scoped(MessageTransport, makeSmtpTransport(settings))
}
