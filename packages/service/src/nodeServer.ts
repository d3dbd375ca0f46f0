import { NodeHttpServer } from "@effect/platform-node"
import { type ApiVersioning, type PublicDocument, servePublicDocuments } from "@platform/http"
import { Effect, FiberRef, Layer, LogLevel } from "effect"
import { createServer } from "node:http"
import { drainingServer } from "./drainingServer.ts"

export interface NodeServerOptions {
  readonly port: number
  readonly host: string
  /** How long requests in flight may take after shutdown begins before their connections are closed. */
  readonly drainSeconds: number
  readonly versioning: ApiVersioning
  readonly publicDocuments: ReadonlyArray<PublicDocument>
}

/**
 * Listens on the configured host and port, answering the public documents
 * from memory before the Effect runtime (such as OpenID discovery and the
 * JWKS: every client's first and most frequent request). On shutdown the
 * server stops accepting and waits for requests in flight, answering every
 * request that still arrives with 503 and `Connection: close` (drainingServer);
 * connections still busy after `drainSeconds` are closed.
 */
export const nodeServer = (options: NodeServerOptions) =>
  Layer.unwrapEffect(
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
      const drainDeadline = Layer.scopedDiscard(
        Effect.addFinalizer(() =>
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
      )
      return Layer.provideMerge(drainDeadline, NodeHttpServer.layer(() => server, { port: options.port, host: options.host }))
    })
  )
