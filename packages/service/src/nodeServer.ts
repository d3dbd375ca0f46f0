import { HttpServerError } from "@effect/platform"
import { type ApiVersioning, type PublicDocument, servePublicDocuments } from "@platform/http"
import { Context, Effect, FiberRef, Layer, LogLevel } from "effect"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { drainingServer } from "./drainingServer.ts"

export interface NodeServerOptions {
  readonly port: number
  readonly host: string
  /** How long requests in flight may take after shutdown begins before their connections are closed. */
  readonly drainSeconds: number
  readonly versioning: ApiVersioning
  readonly publicDocuments: ReadonlyArray<PublicDocument>
}

/** The listening Node server; the app adds its request listener to it (see serveHttpApi). */
export class ListeningServer extends Context.Tag("@platform/service/ListeningServer")<ListeningServer, Server>() {}

const listen = (server: Server, options: NodeServerOptions) =>
  Effect.async<void, HttpServerError.ServeError>((resume) => {
    const failed = (cause: unknown) => resume(Effect.fail(new HttpServerError.ServeError({ cause })))
    server.once("error", failed)
    server.listen(options.port, options.host, () => {
      server.off("error", failed)
      resume(Effect.void)
    })
  })

const close = (server: Server) =>
  Effect.async<void>((resume) => {
    if (!server.listening) return resume(Effect.void)
    server.close(() => resume(Effect.void))
  })

/**
 * Listens on the configured host and port, answering the public documents
 * from memory before the Effect runtime (such as OpenID discovery and the
 * JWKS: every client's first and most frequent request). On shutdown the
 * server stops accepting and waits for requests in flight, answering every
 * request that still arrives with 503 and `Connection: close` (drainingServer);
 * connections still busy after `drainSeconds` are closed.
 */
export const nodeServer = (options: NodeServerOptions) =>
  Layer.scoped(
    ListeningServer,
    Effect.gen(function*() {
      const server = createServer()
      if (options.publicDocuments.length > 0) {
        // The request log line is an INFO line: written unless the runtime's minimum log level is above it.
        const minimumLevel = yield* FiberRef.get(FiberRef.currentMinimumLogLevel)
        servePublicDocuments(server, options.publicDocuments, options.versioning, {
          logRequests: LogLevel.lessThanEqual(minimumLevel, LogLevel.Info)
        })
      }
      // Outermost, so that once shutdown begins nothing else answers.
      const draining = drainingServer(server)
      yield* Effect.acquireRelease(listen(server, options), () => close(server))
      yield* Effect.addFinalizer(() =>
        Effect.sync(() => {
          draining.begin()
          // Keep-alive connections become idle as their last request ends: close them as they do.
          const idle = setInterval(() => server.closeIdleConnections(), 100).unref()
          setTimeout(() => {
            clearInterval(idle)
            server.closeAllConnections()
          }, options.drainSeconds * 1000).unref()
        })
      )
      const address = server.address() as AddressInfo
      yield* Effect.logInfo(`Listening on http://${address.address}:${address.port}`)
      return server
    })
  )
