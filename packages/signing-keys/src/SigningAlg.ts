/** Ed25519 signs access and id tokens; RSA signs identity tokens and RS256 id tokens, for verifiers without EdDSA. */
export const SIGNING_ALGS = ["EdDSA", "RS256"] as const

export type SigningAlg = (typeof SIGNING_ALGS)[number]
