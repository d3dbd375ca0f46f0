import { constantTimeEqual } from "@platform/crypto"
import { createHmac } from "node:crypto"

/** How a service signs a delivery and how a receiver checks it: the value of the signature header. */
export interface WebhookSigning {
  readonly sign: (secret: string, timestamp: number, body: string) => string
  /** Whether the header carries a signature of this body and timestamp by `secret`. */
  readonly verify: (header: string, secret: string, timestamp: string, body: string) => boolean
}

const v1Digest = (secret: string, timestamp: string, body: string): string =>
  createHmac("sha256", secret).update(`${timestamp}.${body}`, "utf8").digest("hex")

/**
 * `v1=<hex>`: HMAC-SHA256 keyed with the whole secret (its prefix included) over
 * `<timestamp>.<raw body>`. The header may list several comma-separated entries (a receiver
 * accepts when any `v1` entry matches), so another scheme can be added beside it later.
 */
export const hmacSha256V1: WebhookSigning = {
  sign: (secret, timestamp, body) => `v1=${v1Digest(secret, String(timestamp), body)}`,
  verify: (header, secret, timestamp, body) => {
    const expected = v1Digest(secret, timestamp, body)
    // Every entry is compared, so the time taken does not tell which one matched.
    return header.split(",").map((entry) => entry.trim()).filter((entry) => entry.startsWith("v1="))
      .reduce((matched, entry) => constantTimeEqual(entry.slice(3), expected) || matched, false)
  }
}
