import { constantTimeEqual, sha256Hex } from "@platform/crypto"

/**
 * How a code is stored: SHA-256 of `<challenge id>:<code>`. Binding the challenge id in
 * means a digest says nothing about any other challenge; why no slow hash or pepper is in
 * docs/decisions.md (Verification codes).
 */
export const codeDigest = (challengeId: string, code: string): string => sha256Hex(`${challengeId}:${code}`)

/** Whether `code` is the one stored for the challenge, in constant time. */
export const codeMatches = (storedDigest: string, challengeId: string, code: string): boolean =>
  constantTimeEqual(storedDigest, codeDigest(challengeId, code))
