import { constantTimeEqual } from "@platform/crypto"
import { createHash } from "node:crypto"

/** RFC 7636 §4.1 and §4.2: 43 to 128 characters of the unreserved alphabet, for verifiers and challenges alike. */
const PKCE_VALUE = /^[A-Za-z0-9\-._~]{43,128}$/

export type PkceMethod = "S256" | "plain"

/** Whether `value` has the syntax of a code_verifier (RFC 7636 §4.1). */
export const isCodeVerifier = (value: string): boolean => PKCE_VALUE.test(value)

/** Whether `value` has the syntax of a code_challenge (RFC 7636 §4.2: the same alphabet and lengths). */
export const isCodeChallenge = (value: string): boolean => PKCE_VALUE.test(value)

/** RFC 7636 §4.2: BASE64URL(SHA256(ASCII(code_verifier))) for S256, the verifier itself for plain. */
export const codeChallengeOf = (verifier: string, method: PkceMethod): string =>
  method === "S256" ? createHash("sha256").update(verifier, "ascii").digest("base64url") : verifier

/**
 * Whether the token request's verifier answers the code's challenge. A
 * verifier for a code issued without a challenge does not: it means the
 * client believes PKCE protected a code that it did not (a downgrade).
 */
export const pkceHolds = (
  challenge: { readonly value: string; readonly method: PkceMethod } | null,
  verifier: string | undefined
): boolean => {
  if (challenge === null) return verifier === undefined
  if (verifier === undefined || !isCodeVerifier(verifier)) return false
  return constantTimeEqual(codeChallengeOf(verifier, challenge.method), challenge.value)
}
