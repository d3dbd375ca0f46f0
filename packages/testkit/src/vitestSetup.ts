import { it } from "@effect/vitest"

/**
 * Runs before every test file (vitest `setupFiles`). @effect/vitest's `layer(…)` assigns its own
 * `effect`, `scoped`, … onto the shared `it` object. Test files share modules (`isolate: false`), so
 * without this a file's top-level `it.effect` would run in the layer of the file before it — a
 * closed one, and without the TestServices when that layer excluded them. Every file starts with
 * the methods as @effect/vitest publishes them, captured before any file ran.
 */
type Methods = Pick<typeof it, "effect" | "scoped" | "live" | "scopedLive" | "flakyTest" | "layer" | "prop">

const store = globalThis as typeof globalThis & { __platformPristineIt?: Methods }
store.__platformPristineIt ??= {
  effect: it.effect,
  scoped: it.scoped,
  live: it.live,
  scopedLive: it.scopedLive,
  flakyTest: it.flakyTest,
  layer: it.layer,
  prop: it.prop
}
Object.assign(it, store.__platformPristineIt)
