import { Effect, type Scope } from "effect"
import { createServer, type IncomingHttpHeaders } from "node:http"
import type { AddressInfo } from "node:net"

/** One request a test receiver got: its headers and the raw bytes of its body, as sent. */
export interface ReceivedRequest {
  readonly method: string
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly rawBody: Buffer
}

/** What the receiver answers: a status and optional headers (e.g. a redirect's Location). */
export interface ReceiverAnswer {
  readonly status: number
  readonly headers?: Readonly<Record<string, string>>
  /** The body to answer with (none by default), e.g. the JSON of a fake provider. */
  readonly body?: string
  /** Real milliseconds to wait before answering. */
  readonly delayMillis?: number
}

export interface WebhookReceiver {
  /** `http://127.0.0.1:<port>` */
  readonly url: string
  /** Every request so far, in arrival order. */
  readonly received: () => ReadonlyArray<ReceivedRequest>
  /** TCP connections accepted so far (also those that never made a request, e.g. a TLS handshake). */
  readonly connections: () => number
  /** Replaces how the receiver answers from now on (default 200). */
  readonly answerWith: (answer: (request: ReceivedRequest) => ReceiverAnswer) => void
}

/** A `node:http` server on loopback that records what it receives, for the scope's lifetime. */
export const webhookReceiver: Effect.Effect<WebhookReceiver, never, Scope.Scope> = Effect.acquireRelease(
  Effect.async<{ receiver: WebhookReceiver; close: () => void }>((resume) => {
    const received: Array<ReceivedRequest> = []
    let answer: (request: ReceivedRequest) => ReceiverAnswer = () => ({ status: 200 })
    const server = createServer((incoming, outgoing) => {
      const chunks: Array<Buffer> = []
      incoming.on("data", (chunk: Buffer) => chunks.push(chunk))
      incoming.on("end", () => {
        const request = {
          method: incoming.method ?? "",
          path: incoming.url ?? "",
          headers: incoming.headers,
          rawBody: Buffer.concat(chunks)
        }
        received.push(request)
        const reply = answer(request)
        setTimeout(() => {
          outgoing.writeHead(reply.status, reply.headers ?? {})
          outgoing.end(reply.body)
        }, reply.delayMillis ?? 0)
      })
    })
    let connections = 0
    server.on("connection", () => {
      connections++
    })
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo
      resume(Effect.succeed({
        receiver: {
          url: `http://127.0.0.1:${port}`,
          received: () => [...received],
          connections: () => connections,
          answerWith: (next) => {
            answer = next
          }
        },
        close: () => {
          server.closeAllConnections()
          server.close()
        }
      }))
    })
  }),
  ({ close }) => Effect.sync(close)
).pipe(Effect.map(({ receiver }) => receiver))
