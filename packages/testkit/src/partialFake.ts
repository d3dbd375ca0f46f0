import { type Context, Effect, Layer } from "effect"

/**
 * What an unstubbed member answers: used as an effect it dies, called as a function it
 * returns an effect that dies. Either way the defect names the service and the member.
 */
const unstubbed = (key: string, member: string) => {
  const dies = Effect.dieMessage(`partialFake(${key}): ${member} is not stubbed, yet the code under test used it`)
  // A function target, so the member can be called; everything else is the dying effect's own.
  return new Proxy(() => dies, {
    get: (_, property) => {
      // A member read as a plain value (a setting in a string, a number) has no effect to die in: throw.
      if (property === Symbol.toPrimitive) throw new Error(`partialFake(${key}): ${member} is not stubbed, yet the code under test read it`)
      const value: unknown = Reflect.get(dies, property)
      return typeof value === "function" ? value.bind(dies) : value
    },
    has: (_, property) => property in dies
  })
}

/**
 * A service value for `tag` made of `stubs` only: any other member is there, but using it
 * dies with a defect naming the tag and the member, so a test states exactly what it expects
 * the code under test to call. Meant for members that are effects or return them; an unstubbed
 * plain value (a setting) throws only when read as text or a number.
 */
export const partialFakeOf = <I, S extends object>(tag: Context.Tag<I, S>, stubs: Partial<S>): S => {
  const made = new Map<string, unknown>()
  // The one cast: every member the stubs lack is supplied by the proxy below (as one that dies when used).
  return new Proxy(stubs as S, {
    get: (target, property, receiver) => {
      // Symbols and `then` are what runtimes and test frameworks probe (inspection, thenables): not members.
      if (typeof property === "symbol" || property === "then" || property in target) {
        return Reflect.get(target, property, receiver)
      }
      let member = made.get(property)
      if (member === undefined) {
        member = unstubbed(tag.key, property)
        made.set(property, member)
      }
      return member
    }
  })
}

/** A layer providing `tag` as a partial fake (see partialFakeOf). */
export const partialFake = <I, S extends object>(tag: Context.Tag<I, S>, stubs: Partial<S>): Layer.Layer<I> =>
  Layer.succeed(tag, partialFakeOf(tag, stubs))
