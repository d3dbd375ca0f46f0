import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import * as fs from "node:fs"
import { DatabaseError, describeCause } from "../database-error.ts"

/**
 * The lock file that makes one process the host of an embedded database: it holds the
 * host's pid. Only the host opens the PGlite files; every other process connects to its socket.
 */
export type LockClaim =
  | { readonly _tag: "Acquired" }
  | { readonly _tag: "HeldBy"; readonly pid: number }

// Lock files this process holds: a lock bearing our own pid that is not in here was left by
// an earlier process that had the same pid (common in containers, where pids restart at 1).
const heldHere = new Set<string>()

const ownContent = `${process.pid}\n`

/**
 * Takes the lock, or reports the live process holding it. A lock whose process is dead is
 * taken over.
 */
export const claimHostLock = (lockPath: string): Effect.Effect<LockClaim, DatabaseError> =>
  Effect.gen(function*() {
    for (let attempt = 0; attempt < 200; attempt++) {
      const outcome = yield* Effect.try({
        try: () => claimOnce(lockPath),
        catch: (cause) => new DatabaseError({ message: `could not lock ${lockPath}: ${describeCause(cause)}`, cause })
      })
      if (outcome !== "Retry") return outcome
      yield* Effect.sleep("25 millis")
    }
    return yield* new DatabaseError({ message: `could not lock ${lockPath}: other processes keep taking it over` })
  })

export const releaseHostLock = (lockPath: string): Effect.Effect<void> =>
  Effect.try(() => {
    heldHere.delete(lockPath)
    if (readContent(lockPath) === ownContent) fs.rmSync(lockPath, { force: true })
  }).pipe(Effect.catchAll((error) => Effect.logWarning(`could not remove ${lockPath}`, error)))

/** Whether the lock is still held by that same, living process. */
export const stillHeldBy = (lockPath: string, pid: number): Effect.Effect<boolean, DatabaseError> =>
  Effect.try({
    try: () => {
      const content = readContent(lockPath)
      return content !== undefined && parsePid(content) === pid && isLiveHolder(lockPath, pid)
    },
    catch: (cause) => new DatabaseError({ message: `could not read ${lockPath}: ${describeCause(cause)}`, cause })
  })

// Synchronous on purpose: no other fiber of this process can run between the checks and the claim.
const claimOnce = (lockPath: string): LockClaim | "Retry" => {
  if (createExclusively(lockPath, ownContent)) {
    heldHere.add(lockPath)
    return { _tag: "Acquired" }
  }
  const content = readContent(lockPath)
  if (content === undefined) return "Retry"
  const pid = parsePid(content)
  if (pid !== undefined && isLiveHolder(lockPath, pid)) return { _tag: "HeldBy", pid }
  takeOverStaleLock(lockPath, content)
  return "Retry"
}

/**
 * Removes a stale lock, unless someone else replaced it meanwhile. A side lock serializes
 * the processes that found it stale together, so that none removes a lock another one has
 * just taken.
 */
const takeOverStaleLock = (lockPath: string, staleContent: string): void => {
  const guardPath = `${lockPath}.takeover`
  if (!createExclusively(guardPath, ownContent)) {
    const guard = readContent(guardPath)
    const guardPid = guard === undefined ? undefined : parsePid(guard)
    // A guard left by a process that died during a takeover.
    if (guard !== undefined && (guardPid === undefined || guardPid === process.pid || !processExists(guardPid))) {
      fs.rmSync(guardPath, { force: true })
    }
    return
  }
  try {
    if (readContent(lockPath) === staleContent) fs.rmSync(lockPath, { force: true })
  } finally {
    fs.rmSync(guardPath, { force: true })
  }
}

/** Creates the file with its full content at once (write aside, then hard-link), or returns false if it exists. */
const createExclusively = (path: string, content: string): boolean => {
  const temporary = `${path}.${process.pid}.${randomUUID()}`
  fs.writeFileSync(temporary, content, { mode: 0o600 })
  try {
    fs.linkSync(temporary, path)
    return true
  } catch (error) {
    if (errorCode(error) === "EEXIST") return false
    throw error
  } finally {
    fs.rmSync(temporary, { force: true })
  }
}

const readContent = (path: string): string | undefined => {
  try {
    return fs.readFileSync(path, "utf8")
  } catch (error) {
    if (errorCode(error) === "ENOENT") return undefined
    throw error
  }
}

const parsePid = (content: string): number | undefined => {
  const pid = Number(content.trim())
  return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined
}

const isLiveHolder = (lockPath: string, pid: number): boolean =>
  pid === process.pid ? heldHere.has(lockPath) : processExists(pid)

const processExists = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return errorCode(error) === "EPERM"
  }
}

const errorCode = (error: unknown): unknown =>
  typeof error === "object" && error !== null && "code" in error ? error.code : undefined
