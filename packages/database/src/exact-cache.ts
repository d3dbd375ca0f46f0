import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { type ChangeWatch, CommittedChanges } from "./committed-changes.ts"

/**
 * `load`, read through a cache that stays exact across processes. Every lookup first waits for
 * the watch's fence, so a change committed anywhere before the lookup began has already emptied
 * the cache; a value read while a change was being reported is answered but not kept. Without a
 * watch (the embedded database), when the fence cannot tell, or inside a transaction (which may hold
 * writes of its own that no other process sees yet), every lookup reads the database.
 * At `capacity` entries the oldest one makes room; `undefined` is never kept.
 */
export const exactCache = <K, V, E, R>(options: {
  /** The channel on which every table `load` reads announces its changes (`changeTriggers`). */
  readonly channel: string
  readonly capacity: number
  readonly load: (key: K) => Effect.Effect<V, E, R>
  /** Which values are kept (default: all); the others are read again on every lookup. */
  readonly keep?: (value: V) => boolean
}): Effect.Effect<(key: K) => Effect.Effect<V, E, R>> =>
  Effect.map(
    Effect.serviceOption(CommittedChanges),
    (changes) => cacheWith(Option.flatMap(changes, (changes) => changes.watch(options.channel)), options)
  )

const keepAll = () => true

const cacheWith = <K, V, E, R>(
  watched: Option.Option<ChangeWatch>,
  options: {
    readonly capacity: number
    readonly load: (key: K) => Effect.Effect<V, E, R>
    readonly keep?: (value: V) => boolean
  }
): (key: K) => Effect.Effect<V, E, R> => {
  if (Option.isNone(watched)) return options.load
  const watch = watched.value
  const { capacity, keep: keeps = keepAll, load } = options
  const entries = new Map<K, V>()
  let entriesGeneration = watch.generation()
  const fenced = Effect.async<boolean>((resume) => watch.fence((known) => resume(Effect.succeed(known))))

  const remember = (key: K, value: V) => {
    if (entries.size >= capacity) entries.delete(entries.keys().next().value as K)
    entries.set(key, value)
  }

  const cached = (key: K) =>
    Effect.flatMap(fenced, (known) => {
      if (!known) return load(key)
      const generation = watch.generation()
      if (generation !== entriesGeneration) {
        entries.clear()
        entriesGeneration = generation
      }
      const kept = entries.get(key)
      if (kept !== undefined) return Effect.succeed(kept)
      return Effect.tap(load(key), (value) => {
        if (watch.generation() === generation && keeps(value)) remember(key, value)
      })
    })

  return (key) =>
    Effect.flatMap(
      Effect.serviceOption(SqlClient.TransactionConnection),
      (transaction) => Option.isSome(transaction) ? load(key) : cached(key)
    )
}
