import { Effect } from "effect"
import { SMTPServer } from "smtp-server"

export interface ReceivedMail {
  readonly from: string | undefined
  readonly to: ReadonlyArray<string>
  /** The message as received: headers, a blank line, the body. */
  readonly raw: string
}

export interface RunningSmtpServer {
  readonly url: string
  readonly received: ReadonlyArray<ReceivedMail>
}

/**
 * A real SMTP server on 127.0.0.1 at a free port (no TLS, no authentication)
 * that keeps what it receives; `rejectRecipients` answers every RCPT TO with 550.
 */
export const smtpServer = (options: { readonly rejectRecipients?: boolean } = {}) =>
  Effect.acquireRelease(
    Effect.async<{ server: SMTPServer; running: RunningSmtpServer }>((resume) => {
      const received: Array<ReceivedMail> = []
      const server = new SMTPServer({
        authOptional: true,
        disabledCommands: ["STARTTLS", "AUTH"],
        logger: false,
        onRcptTo(address, _session, callback) {
          callback(
            options.rejectRecipients
              ? Object.assign(new Error(`Mailbox ${address.address} unavailable`), { responseCode: 550 })
              : null
          )
        },
        onData(stream, session, callback) {
          const chunks: Array<Buffer> = []
          stream.on("data", (chunk: Buffer) => chunks.push(chunk))
          stream.on("end", () => {
            const from = session.envelope.mailFrom
            received.push({
              from: from === false ? undefined : from.address,
              to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
              raw: Buffer.concat(chunks).toString("utf8")
            })
            callback(null)
          })
        }
      })
      server.listen(0, "127.0.0.1", () => {
        const address = server.server.address()
        const port = typeof address === "object" && address !== null ? address.port : 0
        resume(Effect.succeed({ server, running: { url: `smtp://127.0.0.1:${port}`, received } }))
      })
    }),
    ({ server }) => Effect.async<void>((resume) => server.close(() => resume(Effect.void)))
  ).pipe(Effect.map(({ running }) => running))
