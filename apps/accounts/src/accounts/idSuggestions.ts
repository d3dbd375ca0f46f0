import { Effect, Random } from "effect"
import { isValidHandle } from "./AccountId.ts"

/** How many free ids an id_taken or id_reserved answer offers. */
export const SUGGESTION_COUNT = 3

/**
 * Variants of a handle to offer when it is not free: the handle (cut to fit
 * 30 characters) with a short random number, plainly or after `_` or `-`.
 * Random rather than 1, 2, 3 so that popular handles' first variants are not
 * all taken; the repository keeps the free ones.
 */
export const suggestionCandidates = (handle: string): Effect.Effect<ReadonlyArray<string>> =>
  Effect.gen(function*() {
    const cut = (suffix: string) => `${handle.slice(0, 30 - suffix.length)}${suffix}`
    const small = () => Random.nextIntBetween(1, 100)
    const large = () => Random.nextIntBetween(100, 1000)
    const candidates = [
      cut(String(yield* small())),
      cut(`_${yield* small()}`),
      cut(String(yield* large())),
      cut(`-${yield* small()}`),
      cut(String(yield* small())),
      cut(`_${yield* large()}`),
      cut(String(yield* large())),
      cut(`-${yield* large()}`)
    ]
    return [...new Set(candidates)].filter((candidate) => candidate !== handle && isValidHandle(candidate))
  })
