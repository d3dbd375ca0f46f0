import { describe, expect, it } from "@effect/vitest"
import { Cause, Context, Effect, Exit, Option } from "effect"
import { partialFake, partialFakeOf } from "../src/partialFake.ts"

class Mailer extends Context.Tag("test/Mailer")<Mailer, {
  readonly send: (to: string) => Effect.Effect<string>
  readonly pending: Effect.Effect<number>
  readonly flush: () => Effect.Effect<void>
}>() {}

class Settings extends Context.Tag("test/Settings")<Settings, { readonly trustProxy: boolean; readonly publicUrl: string }>() {}

class Counter extends Effect.Service<Counter>()("test/Counter", {
  succeed: { next: Effect.succeed(1), reset: (to: number) => Effect.succeed(to) }
}) {}

/** The message of the defect `effect` died with. */
const defectOf = <A, E>(effect: Effect.Effect<A, E>) =>
  Effect.map(Effect.exit(effect), (exit) =>
    Exit.isFailure(exit)
      ? Option.getOrUndefined(Option.map(Cause.dieOption(exit.cause), (defect) => (defect as Error).message))
      : "no failure")

describe("partialFake", () => {
  it.effect("a stubbed member answers as stubbed", () =>
    Effect.gen(function*() {
      const mailer = yield* Mailer
      expect(yield* mailer.send("a@example.com")).toBe("sent to a@example.com")
    }).pipe(Effect.provide(partialFake(Mailer, { send: (to) => Effect.succeed(`sent to ${to}`) }))))

  it.effect("an unstubbed method dies when called, naming the tag and the member", () =>
    Effect.gen(function*() {
      const mailer = yield* Mailer
      expect(yield* defectOf(mailer.flush())).toBe(
        "partialFake(test/Mailer): flush is not stubbed, yet the code under test used it"
      )
    }).pipe(Effect.provide(partialFake(Mailer, {}))))

  it.effect("an unstubbed effect dies when run, whether yielded or composed", () =>
    Effect.gen(function*() {
      const mailer = yield* Mailer
      expect(yield* defectOf(Effect.gen(function*() {
        return yield* mailer.pending
      }))).toContain("pending is not stubbed")
      expect(yield* defectOf(Effect.map(mailer.pending, (n) => n + 1))).toContain("pending is not stubbed")
      expect(Effect.isEffect(mailer.pending)).toBe(true)
    }).pipe(Effect.provide(partialFake(Mailer, { send: () => Effect.succeed("unused") }))))

  it.effect("an Effect.Service is faked the same way", () =>
    Effect.gen(function*() {
      const counter = yield* Counter
      expect(yield* counter.next).toBe(7)
      expect(yield* defectOf(counter.reset(0))).toBe(
        "partialFake(test/Counter): reset is not stubbed, yet the code under test used it"
      )
    }).pipe(Effect.provide(partialFake(Counter, { next: Effect.succeed(7) }))))

  it.effect("an unstubbed plain value dies when read as one, naming the tag and the member", () =>
    Effect.gen(function*() {
      const settings = yield* Settings
      expect(settings.trustProxy).toBe(true)
      expect(yield* defectOf(Effect.sync(() => `${settings.publicUrl}/v1`))).toBe(
        "partialFake(test/Settings): publicUrl is not stubbed, yet the code under test read it"
      )
    }).pipe(Effect.provide(partialFake(Settings, { trustProxy: true }))))

  it("merely holding a fake uses none of its members: it can be resolved as a promise's value", async () => {
    const fake = partialFakeOf(Mailer, {})
    expect(await Promise.resolve(fake)).toBe(fake)
    expect(await Effect.runPromise(Effect.succeed(fake))).toBe(fake)
  })
})
