import { Data } from "effect"

/** The stored response of a finished request, replayed byte for byte. */
export interface StoredResponse {
  readonly status: number
  readonly headers: Record<string, string>
  readonly body: Uint8Array
}

/**
 * What `IdempotencyStore.begin` found for a (scope, key):
 * - `Started`: the caller now holds the key and must `complete` or `release` it;
 * - `Replay`: a finished, unexpired result with the same fingerprint;
 * - `InProgress`: the same request is still running and its hold is not over;
 * - `Mismatch`: the key was used for a different request (running or finished).
 */
export type BeginResult = Data.TaggedEnum<{
  Started: {}
  Replay: StoredResponse
  InProgress: {}
  Mismatch: {}
}>

export const BeginResult = Data.taggedEnum<BeginResult>()
