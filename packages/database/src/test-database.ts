import { Effect, Layer, Redacted, type Scope } from "effect"
import { randomBytes } from "node:crypto"
import { clientLayer, type DatabaseServices } from "./client-layer.ts"
import { DatabaseError, describeCause } from "./database-error.ts"
import { parseDatabaseUrl } from "./database-url.ts"
import { emptyDatabaseTemplate } from "./embedded/empty-database-template.ts"
import { servePGlite } from "./embedded/pglite-socket-server.ts"
import type { Migrations } from "./migrations.ts"
import { connectPg, openPg } from "./pg-connection.ts"
import { inRealTime } from "./real-time.ts"

const serverUrl = (): string | undefined => {
  const url = process.env["TEST_DATABASE_URL"]
  return url === undefined || url.trim() === "" ? undefined : url
}

/** Whether tests run against a real PostgreSQL server (`TEST_DATABASE_URL` is set) rather than PGlite. */
export const hasServer: boolean = serverUrl() !== undefined

/**
 * A fresh, empty database that other processes can reach at `url`, until the scope closes:
 * a new database on the `TEST_DATABASE_URL` server (dropped afterwards), otherwise an
 * in-memory PGlite served on 127.0.0.1 at a free port.
 */
export const provision: Effect.Effect<{ readonly url: string }, DatabaseError, Scope.Scope> = Effect.suspend(() => {
  const server = serverUrl()
  return server === undefined ? inMemoryDatabase : freshDatabaseOn(server)
}).pipe(inRealTime)

/**
 * An isolated, empty database with `migrations` applied, for the tests that build this layer
 * (each build gets its own). Against PGlite it has one connection, like the embedded mode.
 */
export const layer = (migrations: Migrations): Layer.Layer<DatabaseServices> =>
  clientLayer(
    Effect.gen(function*() {
      const { url } = yield* provision
      const parsed = yield* parseDatabaseUrl(Redacted.make(url))
      // On PGlite connectPg keeps to one connection and unnamed statements, as in embedded mode.
      return yield* openPg({ url: parsed.url, maxConnections: 5 }, parsed, { keepPlans: true })
    }),
    migrations
  ).pipe(Layer.orDie)

/**
 * A fresh database shared by several "processes": each build of the returned layer opens its
 * own pool and runs the migrations itself, as separate server processes on one database do.
 */
export const sharedByProcesses = (
  migrations: Migrations
): Effect.Effect<Layer.Layer<DatabaseServices>, DatabaseError, Scope.Scope> =>
  Effect.map(provision, ({ url }) =>
    clientLayer(
      Effect.flatMap(parseDatabaseUrl(Redacted.make(url)), (parsed) =>
        openPg({ url: parsed.url, maxConnections: 5 }, parsed, { keepPlans: true })),
      migrations
    ).pipe(Layer.orDie))

const inMemoryDatabase = emptyDatabaseTemplate.pipe(
  Effect.flatMap((template) =>
    servePGlite({ pglite: { loadDataDir: template, relaxedDurability: true }, listen: { host: "127.0.0.1", port: 0 } })
  ),
  Effect.map((address) => ({ url: `postgres://postgres@${address}/postgres` }))
)

const freshDatabaseOn = (server: string): Effect.Effect<{ readonly url: string }, DatabaseError, Scope.Scope> =>
  Effect.gen(function*() {
    const parsed = yield* parseDatabaseUrl(Redacted.make(server))
    const admin = yield* connectPg({ url: parsed.url, maxConnections: 1 }, parsed)
    const name = `test_${randomBytes(8).toString("hex")}`
    yield* Effect.acquireRelease(
      admin.unsafe(`create database ${name}`).pipe(
        Effect.mapError((error) =>
          new DatabaseError({
            message: parsed.scrub(`could not create a test database on ${parsed.description}: ${describeCause(error)}`),
            cause: error
          })
        )
      ),
      () =>
        admin.unsafe(`drop database if exists ${name} with (force)`).pipe(
          Effect.catchAll((error) => Effect.logWarning(`could not drop the test database ${name}`, describeCause(error)))
        )
    )
    const url = new URL(server)
    url.pathname = `/${name}`
    return { url: url.toString() }
  })
