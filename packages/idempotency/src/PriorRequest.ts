import { Data } from "effect"

/** The stored response of a finished request, replayed byte for byte. */
export interface StoredResponse {
  readonly status: number
  readonly headers: Record<string, string>
  readonly body: Uint8Array
}

/**
 * Why `IdempotencyStore.once` did not run a request:
 * - `Replay`: the same request finished before, within its retention; here is its answer;
 * - `InProgress`: the same key is held by a request that is still running;
 * - `Mismatch`: the key was used for a different request;
 * - `Unavailable`: the same request finished, but its answer (it carried a new secret) is no longer kept.
 */
export type PriorRequest = Data.TaggedEnum<{
  Replay: StoredResponse
  InProgress: {}
  Mismatch: {}
  Unavailable: {}
}>

export const PriorRequest = Data.taggedEnum<PriorRequest>()

/** What `once` did: ran the request (`Ran`, with what it produced) or found a prior one. */
export type OnceResult<A> = PriorRequest | { readonly _tag: "Ran"; readonly value: A }
