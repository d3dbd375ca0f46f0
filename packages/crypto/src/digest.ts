import { createHash, timingSafeEqual } from "node:crypto"

/** SHA-256 of the UTF-8 bytes of `value`, lowercase hex: how high-entropy tokens are stored. */
export const sha256Hex = (value: string): string => createHash("sha256").update(value, "utf8").digest("hex")

/**
 * Compares two strings in time independent of where they differ and of their lengths:
 * both sides are hashed to fixed-length digests first, so there is no early exit on length.
 */
export const constantTimeEqual = (a: string, b: string): boolean =>
  timingSafeEqual(sha256(a), sha256(b))

const sha256 = (value: string): Buffer => createHash("sha256").update(value, "utf8").digest()
