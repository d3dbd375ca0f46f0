import { expect, it } from "@effect/vitest"
import { Deferred, Effect, Fiber, Ref } from "effect"
import { coalesced } from "../src/coalesced.ts"

it.effect("concurrent lookups of one key share a run; a later lookup reads afresh", () =>
  Effect.gen(function*() {
    const runs = yield* Ref.make(0)
    const gate = yield* Deferred.make<void>()
    const lookup = coalesced((key: string) =>
      Effect.zipRight(Deferred.await(gate), Ref.updateAndGet(runs, (n) => n + 1)).pipe(Effect.map((n) => `${key}#${n}`))
    )
    const started = yield* Ref.make(0)
    const call = (key: string) => Effect.zipRight(Ref.update(started, (n) => n + 1), lookup(key))
    const sharing = yield* Effect.all([call("app:a"), call("app:a"), call("app:a"), call("app:b")], {
      concurrency: "unbounded"
    }).pipe(Effect.fork)
    // Every call has begun (and the first of each key waits at the gate) before the gate opens.
    yield* Effect.repeat(Effect.zipRight(Effect.yieldNow(), Ref.get(started)), { until: (n) => n === 4 })
    yield* Effect.yieldNow()
    yield* Deferred.succeed(gate, undefined)
    const answers = yield* Fiber.join(sharing)
    expect(answers.slice(0, 3)).toEqual([answers[0], answers[0], answers[0]])
    expect(yield* Ref.get(runs)).toBe(2)
    expect(yield* lookup("app:a")).toBe("app:a#3")
  }))
