/**
 * The channel on which the tables a proof's verification reads announce their changes (proof_tokens,
 * proofs, apps, and the cascade's accounts, memberships and signins): a cache may follow it only if
 * every table it reads is one of them.
 */
export const PROOF_VIEW_CHANNEL = "proof_views"

/** Proof tokens each process keeps verified in memory: a busy receiving side's recent proofs. */
export const PROOF_VIEW_CACHE_CAPACITY = 20_000
