import { Deferred, Effect, Exit, FiberId, Runtime } from "effect"

/**
 * `runMany` over the calls made at the same moment: the first call waits for the fibers already
 * scheduled to run (every stream woken by the same tick), then one run answers all the calls
 * gathered by then, each with its own result (`runMany` answers in the order of its inputs).
 * A later call starts the next batch. The run is a fiber of `runtime`, not of a caller, so it never
 * runs inside one caller's transaction.
 */
export const sameMomentBatch = <I, A>(
  runMany: (inputs: ReadonlyArray<I>) => Effect.Effect<ReadonlyArray<A>>,
  runtime: Runtime.Runtime<never>
) => {
  const runFork = Runtime.runFork(runtime)
  let pending: Array<{ readonly input: I; readonly result: Deferred.Deferred<A> }> = []

  const flush = Effect.suspend(() => {
    const batch = pending
    pending = []
    return Effect.flatMap(Effect.exit(runMany(batch.map((call) => call.input))), (exit) =>
      Effect.forEach(batch, (call, index) =>
        Exit.isSuccess(exit)
          ? Deferred.succeed(call.result, exit.value[index]!)
          : Deferred.failCause(call.result, exit.cause), { discard: true }))
  })

  return (input: I): Effect.Effect<A> =>
    Effect.suspend(() => {
      const result = Deferred.unsafeMake<A>(FiberId.none)
      pending.push({ input, result })
      const starts = pending.length === 1
      if (starts) runFork(Effect.zipRight(Effect.yieldNow(), flush))
      return Deferred.await(result)
    })
}
