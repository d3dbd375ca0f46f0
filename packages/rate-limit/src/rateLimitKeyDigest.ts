import { createHash } from "node:crypto"

/**
 * Rate-limit keys embed e-mail addresses, phone numbers and IP addresses;
 * only their SHA-256 digest is stored, which also gives the primary key a fixed size.
 */
export const rateLimitKeyDigest = (key: string): Uint8Array => createHash("sha256").update(key, "utf8").digest()
