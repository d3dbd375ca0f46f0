import { Clock, Deferred, Duration, Effect, Fiber, Schema } from "effect"
import cluster, { type Worker } from "node:cluster"
import { WORKER_NUMBER_ENV } from "./workerNumber.ts"

/** A worker exited before it listened, on the first start: the start failed (the worker said why, on stderr). */
export class WorkerStartFailed extends Schema.TaggedError<WorkerStartFailed>()("WorkerStartFailed", {
  worker: Schema.Number,
  code: Schema.NullOr(Schema.Number),
  signal: Schema.NullOr(Schema.String)
}) {}

interface Exited {
  readonly code: number | null
  readonly signal: string | null
}

interface Forked {
  readonly worker: Worker
  readonly listening: Promise<void>
  readonly exited: Promise<Exited>
}

/** A worker restarts after 1 s, then 2, 4, … up to 30 s while it keeps dying; a worker that ran a minute starts the count again. */
const restartDelay = (failures: number): Duration.Duration => Duration.seconds(Math.min(2 ** (failures - 1), 30))
const STEADY = Duration.minutes(1)

const logExit = (number: number, forked: Forked, exited: Exited, fields: Record<string, unknown> = {}) =>
  Effect.logInfo({
    event: "worker_exited",
    worker: number,
    pid: forked.worker.process.pid,
    code: exited.code,
    signal: exited.signal,
    ...fields
  })

/** Forks worker `number`; at the scope's end a live worker is sent SIGTERM and awaited (it drains first). */
const forkWorker = (number: number) =>
  Effect.acquireRelease(
    Effect.sync((): Forked => {
      const worker = cluster.fork({ [WORKER_NUMBER_ENV]: String(number) })
      return {
        worker,
        listening: new Promise((resolve) => worker.once("listening", () => resolve())),
        exited: new Promise((resolve) => worker.once("exit", (code: number | null, signal: string | null) => resolve({ code, signal })))
      }
    }),
    (forked) =>
      forked.worker.isDead() ? Effect.void : Effect.gen(function*() {
        forked.worker.process.kill("SIGTERM")
        yield* logExit(number, forked, yield* Effect.promise(() => forked.exited))
      })
  )

/**
 * Keeps worker `number` running: `started` succeeds once its first process listens, or fails when
 * that process exits first. Later, a worker that dies is restarted with a back-off.
 */
const keepWorker = (number: number, started: Deferred.Deferred<void, WorkerStartFailed>) =>
  Effect.gen(function*() {
    for (let failures = 0;;) {
      const ran = yield* Effect.scoped(Effect.gen(function*() {
        const forked = yield* forkWorker(number)
        const listened = yield* Effect.promise(() =>
          Promise.race([forked.listening.then(() => true), forked.exited.then(() => false)])
        )
        const since = yield* Clock.currentTimeMillis
        if (listened) {
          yield* Effect.logInfo({ event: "worker_started", worker: number, pid: forked.worker.process.pid })
          yield* Deferred.succeed(started, undefined)
        }
        const exited = yield* Effect.promise(() => forked.exited)
        const firstStart = !(yield* Deferred.isDone(started))
        const steady = (yield* Clock.currentTimeMillis) - since >= Duration.toMillis(STEADY)
        failures = steady ? 1 : failures + 1
        yield* logExit(number, forked, exited, firstStart ? {} : { restart_in_ms: Duration.toMillis(restartDelay(failures)) })
        if (firstStart) yield* Deferred.fail(started, new WorkerStartFailed({ worker: number, ...exited }))
        return !firstStart
      }))
      if (!ran) return
      yield* Effect.sleep(restartDelay(failures))
    }
  })

/** A signal after the first (which stops the workers gracefully) ends them at once. */
const killOnSecondSignal = Effect.acquireRelease(
  Effect.sync(() => {
    let signals = 0
    const onSignal = () => {
      signals += 1
      if (signals < 2) return
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGKILL")
    }
    process.on("SIGINT", onSignal)
    process.on("SIGTERM", onSignal)
    return onSignal
  }),
  (onSignal) =>
    Effect.sync(() => {
      process.removeListener("SIGINT", onSignal)
      process.removeListener("SIGTERM", onSignal)
    })
)

/**
 * The primary of a service run as `count` processes sharing its port (node:cluster). Worker 1
 * starts first, alone, so that it applies pending migrations before the others start and find
 * none; if a first start fails, the others are stopped and this fails. Once all listen, a worker
 * that dies is restarted with a back-off. Interrupted (SIGTERM, SIGINT), it sends every worker
 * SIGTERM and returns once all have drained and exited; a second signal kills them.
 */
export const runWorkers = (count: number): Effect.Effect<never, WorkerStartFailed> =>
  Effect.scoped(Effect.gen(function*() {
    yield* killOnSecondSignal
    const fibers: Array<Fiber.RuntimeFiber<void>> = []
    const start = (number: number) =>
      Effect.gen(function*() {
        const started = yield* Deferred.make<void, WorkerStartFailed>()
        fibers.push(yield* Effect.fork(keepWorker(number, started)))
        return started
      })
    const run = Effect.gen(function*() {
      yield* Deferred.await(yield* start(1))
      const rest = yield* Effect.forEach(Array.from({ length: count - 1 }, (_, i) => i + 2), start)
      yield* Effect.forEach(rest, Deferred.await, { concurrency: "unbounded", discard: true })
      yield* Effect.logInfo({ event: "workers_listening", workers: count })
      return yield* Effect.never
    })
    // All at once: each worker drains in parallel with the others.
    return yield* Effect.ensuring(run, Effect.suspend(() => Fiber.interruptAll(fibers)))
  }))
