import { describe, expect, it } from "@effect/vitest"
import { keyedDigest } from "../src/index.ts"

const root = new Uint8Array(32).fill(7)

/** The same construction through Web Crypto: HKDF-SHA256 (empty salt, info `keyed-digest:<purpose>`), then HMAC-SHA256. */
const webCryptoDigest = async (rootKey: Uint8Array, purpose: string, value: string): Promise<string> => {
  const base = await crypto.subtle.importKey("raw", rootKey, "HKDF", false, ["deriveBits"])
  const bits = await crypto.subtle.deriveBits(
    { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: new TextEncoder().encode(`keyed-digest:${purpose}`) },
    base,
    256
  )
  const key = await crypto.subtle.importKey("raw", bits, { name: "HMAC", hash: "SHA-256" }, false, ["sign"])
  const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(value))
  return Buffer.from(mac).toString("hex")
}

describe("keyedDigest", () => {
  it("is HMAC-SHA256 under an HKDF-derived key, as Web Crypto computes it", async () => {
    const digest = keyedDigest(root, "silicon_token")("stk-0123456789abcdef0123456789abcdef")
    expect(digest).toMatch(/^[0-9a-f]{64}$/)
    expect(digest).toBe(await webCryptoDigest(root, "silicon_token", "stk-0123456789abcdef0123456789abcdef"))
  })

  it("differs by purpose and by key", () => {
    const value = "stk-0123456789abcdef0123456789abcdef"
    const tokens = keyedDigest(root, "silicon_token")(value)
    expect(keyedDigest(root, "cookie")(value)).not.toBe(tokens)
    expect(keyedDigest(new Uint8Array(32).fill(8), "silicon_token")(value)).not.toBe(tokens)
    expect(keyedDigest(root, "silicon_token")(value)).toBe(tokens)
  })
})
