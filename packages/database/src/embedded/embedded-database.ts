import { Clock, Effect, type Scope } from "effect"
import * as fs from "node:fs"
import * as net from "node:net"
import * as path from "node:path"
import { DatabaseError, describeCause } from "../database-error.ts"
import { emptyDatabaseTemplate } from "./empty-database-template.ts"
import { claimHostLock, releaseHostLock, stillHeldBy } from "./host-lock.ts"
import { restrictToOwner } from "./owner-only.ts"
import { servePGlite } from "./pglite-socket-server.ts"

/** pg finds the socket as `<host>/.s.PGSQL.<port>` when `host` is a directory. */
export const socketPort = 5432

// sun_path holds 108 bytes on Linux and 104 on macOS, including the final NUL.
const maxSocketPathBytes = process.platform === "linux" ? 107 : 103

// How long a process waits for the host's socket while the host is still opening the database.
const hostStartTimeoutMillis = 30_000

export interface EmbeddedDatabase {
  /** Directory holding the socket: give it to pg as `host`, with `socketPort`. */
  readonly socketDirectory: string
}

/**
 * Makes the embedded database in `dataDir` reachable on `<dataDir>/.s.PGSQL.5432`.
 * The first process becomes its host: it holds `<dataDir>/embedded.lock`, opens PGlite from
 * `<dataDir>/postgres` and serves it until the scope closes. Any other process, or a second
 * opener in this one, becomes a client of that socket: two PGlite instances on one
 * directory would corrupt it.
 */
export const openEmbeddedDatabase = (dataDir: string): Effect.Effect<EmbeddedDatabase, DatabaseError, Scope.Scope> =>
  Effect.gen(function*() {
    // The real path: processes naming one directory differently (a symlink) must find the same lock.
    const directory = yield* Effect.try({
      try: () => {
        fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 })
        // The mode above is masked by the umask and ignored for a directory that already exists.
        fs.chmodSync(dataDir, 0o700)
        return fs.realpathSync(dataDir)
      },
      catch: (cause) =>
        new DatabaseError({
          message: `could not prepare the data directory ${path.resolve(dataDir)}: ${describeCause(cause)}`,
          cause
        })
    })
    const socketPath = path.join(directory, `.s.PGSQL.${socketPort}`)
    if (Buffer.byteLength(socketPath) > maxSocketPathBytes) {
      return yield* new DatabaseError({
        message: `the data directory path is too long for a Unix socket (${socketPath} is ${
          Buffer.byteLength(socketPath)
        } bytes, at most ${maxSocketPathBytes}): use a shorter data directory or a database URL`
      })
    }
    return yield* hostOrJoin(directory, socketPath, path.join(directory, "embedded.lock"))
  })

const hostOrJoin = (
  directory: string,
  socketPath: string,
  lockPath: string
): Effect.Effect<EmbeddedDatabase, DatabaseError, Scope.Scope> =>
  Effect.gen(function*() {
    const claim = yield* Effect.acquireRelease(
      claimHostLock(lockPath),
      (claim) => (claim._tag === "Acquired" ? releaseHostLock(lockPath) : Effect.void)
    )
    if (claim._tag === "Acquired") {
      yield* host(directory, socketPath)
      yield* Effect.logInfo(`embedded PostgreSQL (PGlite) in ${directory}, served on ${socketPath}`)
      return { socketDirectory: directory }
    }
    if (yield* hostAnswers(socketPath, lockPath, claim.pid)) {
      yield* Effect.logInfo(`embedded PostgreSQL in ${directory} is held by process ${claim.pid}: connecting to its socket`)
      return { socketDirectory: directory }
    }
    return yield* hostOrJoin(directory, socketPath, lockPath)
  })

const host = (directory: string, socketPath: string): Effect.Effect<void, DatabaseError, Scope.Scope> =>
  Effect.gen(function*() {
    const removeSocket = Effect.try({
      try: () => fs.rmSync(socketPath, { force: true }),
      catch: (cause) => new DatabaseError({ message: `could not remove ${socketPath}: ${describeCause(cause)}`, cause })
    })
    // Before serving: a socket file left by a host that crashed (we hold the lock now).
    // After: on shutdown, once the server has stopped.
    yield* Effect.acquireRelease(removeSocket, () => Effect.ignore(removeSocket))
    const dataDir = path.join(directory, "postgres")
    // PGlite has no authentication and writes its files 0666 less the umask: only this user may
    // reach them, checked again once PGlite has made its files and after it has closed them.
    yield* Effect.acquireRelease(restrictToOwner(dataDir), () => Effect.ignore(restrictToOwner(dataDir)))
    const pglite = fs.existsSync(path.join(dataDir, "PG_VERSION"))
      ? { dataDir }
      : { dataDir, loadDataDir: yield* emptyDatabaseTemplate }
    yield* servePGlite({ pglite, listen: { path: socketPath } })
    yield* restrictToOwner(dataDir)
    yield* Effect.try({
      try: () => fs.chmodSync(socketPath, 0o600),
      catch: (cause) => new DatabaseError({ message: `could not restrict ${socketPath}: ${describeCause(cause)}`, cause })
    })
  })

/**
 * Waits until the host's socket accepts connections (true), or the lock passes out of that
 * host's hands (false: try again to become the host).
 */
const hostAnswers = (socketPath: string, lockPath: string, pid: number): Effect.Effect<boolean, DatabaseError> =>
  Effect.gen(function*() {
    const deadline = (yield* Clock.currentTimeMillis) + hostStartTimeoutMillis
    while (true) {
      if (yield* socketAccepts(socketPath)) return true
      if (!(yield* stillHeldBy(lockPath, pid))) return false
      if ((yield* Clock.currentTimeMillis) > deadline) {
        return yield* new DatabaseError({
          message: `the embedded database is locked by process ${pid} (${lockPath}), but ${socketPath} does not answer; ` +
            `if no process is using this data directory, delete the lock file`
        })
      }
      yield* Effect.sleep("100 millis")
    }
  })

const socketAccepts = (socketPath: string): Effect.Effect<boolean> =>
  Effect.async<boolean>((resume) => {
    const socket = net.createConnection(socketPath)
    socket.once("connect", () => {
      socket.destroy()
      resume(Effect.succeed(true))
    })
    socket.once("error", () => resume(Effect.succeed(false)))
    return Effect.sync(() => socket.destroy())
  }).pipe(Effect.timeoutTo({ duration: "1 second", onSuccess: (accepts) => accepts, onTimeout: () => false }))
