/**
 * The store a peer (oidc-provider) server keeps its state in: PostgreSQL through our adapter
 * (postgresAdapter.ts) when PEER_DATABASE_URL is set, else its own in-memory adapter (its
 * MemoryAdapter over its LRU) with room for every token of a run: the default store holds about
 * 1,000 entries, so codes minted ahead would be evicted before use.
 */
import type { Adapter, AdapterFactory } from "oidc-provider"
import { postgresAdapter } from "./postgresAdapter.ts"

// The default adapter's own classes, imported from the package's files (no typings for them).
const inMemory = async (): Promise<AdapterFactory> => {
  const memoryAdapter: { default: new(model: string, store: unknown) => Adapter } = await import(
    String("oidc-provider/lib/adapters/memory_adapter.js")
  )
  const lru: { default: new(options: { maxSize: number }) => unknown } = await import(
    String("oidc-provider/lib/helpers/lru.js")
  )
  const store = new lru.default({ maxSize: 5_000_000 })
  return (model) => new memoryAdapter.default(model, store)
}

export const peerAdapter = (): Promise<AdapterFactory> => {
  const url = process.env["PEER_DATABASE_URL"]
  return url === undefined || url === "" ? inMemory() : postgresAdapter(url)
}
