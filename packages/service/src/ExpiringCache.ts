/**
 * A per-process memo whose entries stop answering at their own deadline (epoch milliseconds).
 * It only holds what can be recomputed from the database or from the input itself: dropping
 * everything when it reaches `capacity` keeps memory bounded without an eviction order.
 */
export class ExpiringCache<V> {
  private readonly entries = new Map<string, { readonly value: V; readonly until: number }>()

  constructor(private readonly capacity: number) {}

  get(key: string, nowMillis: number): V | undefined {
    return this.entry(key, nowMillis)?.value
  }

  /** The entry still answering for `key`, with its deadline. */
  entry(key: string, nowMillis: number): { readonly value: V; readonly until: number } | undefined {
    const entry = this.entries.get(key)
    if (entry === undefined) return undefined
    if (entry.until > nowMillis) return entry
    this.entries.delete(key)
    return undefined
  }

  set(key: string, value: V, until: number): void {
    if (this.entries.size >= this.capacity) this.entries.clear()
    this.entries.set(key, { value, until })
  }
}
