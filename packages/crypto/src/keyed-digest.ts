import { createHmac, hkdfSync } from "node:crypto"

/**
 * A keyed digest for one purpose: HMAC-SHA256, lowercase hex, under a key derived from `rootKey`
 * with HKDF-SHA256 and the purpose as its info, so one configured key serves several purposes
 * without any two sharing a key. For secrets short enough that a plain hash could be searched
 * offline (a 128-bit token is not, but a leaked table should still tell nothing without the key).
 */
export const keyedDigest = (rootKey: Uint8Array, purpose: string): (value: string) => string => {
  const key = Buffer.from(hkdfSync("sha256", rootKey, new Uint8Array(0), `keyed-digest:${purpose}`, 32))
  return (value) => createHmac("sha256", key).update(value, "utf8").digest("hex")
}
