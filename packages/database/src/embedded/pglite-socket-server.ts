import type { PGliteOptions } from "@electric-sql/pglite"
import { PGLiteSocketServer } from "@electric-sql/pglite-socket"
import { Effect, type Scope } from "effect"
import { DatabaseError, describeCause } from "../database-error.ts"
import { embeddedExtensions } from "./extensions.ts"
import { SessionAffinePGlite } from "./session-affine-pglite.ts"

/** Where the socket server listens: a Unix socket file, or TCP (port 0 picks a free port). */
export type Listen =
  | { readonly path: string }
  | { readonly host: string; readonly port: number }

// Clients of one embedded database: the server's own pool, its LISTEN connection, operator commands.
const maxClientConnections = 16

/**
 * Opens PGlite (in `options.pglite.dataDir`, or in memory) with the embedded extensions (pg_trgm,
 * fuzzystrmatch) and serves it on a socket until the scope closes; then stops the server and closes
 * PGlite, which flushes it to disk.
 * Returns the address served.
 */
export const servePGlite = (options: {
  readonly pglite: PGliteOptions
  readonly listen: Listen
}): Effect.Effect<string, DatabaseError, Scope.Scope> =>
  Effect.gen(function*() {
    const where = options.pglite.dataDir ?? "memory"
    const db = yield* Effect.acquireRelease(
      Effect.tryPromise({
        try: async () => {
          const db = new SessionAffinePGlite({
            ...options.pglite,
            extensions: { ...embeddedExtensions, ...options.pglite.extensions }
          })
          await db.waitReady
          return db
        },
        catch: (cause) =>
          new DatabaseError({ message: `could not open the embedded PostgreSQL in ${where}: ${describeCause(cause)}`, cause })
      }),
      (db) =>
        Effect.tryPromise(() => db.close()).pipe(
          Effect.catchAll((error) => Effect.logError(`could not close the embedded PostgreSQL in ${where}`, error))
        )
    )
    const server = yield* Effect.acquireRelease(
      Effect.tryPromise({
        try: async () => {
          const server = new PGLiteSocketServer({ db, ...options.listen, maxConnections: maxClientConnections })
          await server.start()
          return server
        },
        catch: (cause) =>
          new DatabaseError({ message: `could not serve the embedded PostgreSQL: ${describeCause(cause)}`, cause })
      }),
      (server) => Effect.promise(() => server.stop())
    )
    return server.getServerConn()
  })
