import { type ConfigError, Effect, Layer, Option } from "effect"
import { join } from "node:path"
import { makeMailboxFileTransport } from "./MailboxFileTransport.ts"
import { mailSettings } from "./mailSettings.ts"
import { MessageTransport, type MessageTransportService } from "./MessageTransport.ts"
import { MessageTransportError } from "./MessageTransportError.ts"
import { routeByChannel } from "./routeByChannel.ts"
import { makeSmtpTransport } from "./SmtpTransport.ts"

export const MAILBOX_FILE_NAME = "mailbox.jsonl"

/** Production has no SMS provider yet: each SMS fails (and is retried, then marked failed) with this reason. */
const noSmsProvider: MessageTransportService = {
  send: () => Effect.fail(new MessageTransportError({ message: "no SMS provider is configured" }))
}

/**
 * The transport a service runs with, from `<prefix>SMTP_URL`, `<prefix>MAIL_FROM`
 * and `<prefix>ENVIRONMENT`:
 * - SMTP set: email through SMTP; SMS to the development mailbox, or in
 *   production refused (no SMS provider exists yet; a warning at start says so);
 * - SMTP unset (development only): email and SMS to `<dataDir>/mailbox.jsonl`.
 */
export const transportFromConfig = (
  prefix: string,
  dataDir: string
): Layer.Layer<MessageTransport, ConfigError.ConfigError> =>
  Layer.scoped(
    MessageTransport,
    Effect.gen(function*() {
      const settings = yield* mailSettings(prefix)
      const mailboxPath = join(dataDir, MAILBOX_FILE_NAME)
      if (Option.isNone(settings.smtpUrl)) {
        yield* Effect.logInfo(`outgoing email and SMS are written to the development mailbox ${mailboxPath}`)
        return yield* makeMailboxFileTransport(mailboxPath)
      }
      const email = yield* makeSmtpTransport({ url: settings.smtpUrl.value, from: settings.from })
      if (settings.environment === "production") {
        yield* Effect.logWarning("no SMS provider is configured: SMS messages will fail and be marked failed")
        return routeByChannel({ email, sms: noSmsProvider })
      }
      yield* Effect.logInfo(`outgoing SMS are written to the development mailbox ${mailboxPath}`)
      return routeByChannel({ email, sms: yield* makeMailboxFileTransport(mailboxPath) })
    })
  )
