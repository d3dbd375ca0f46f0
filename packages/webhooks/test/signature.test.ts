import { describe, expect, it } from "@effect/vitest"
import { createHmac } from "node:crypto"
import { hmacSha256V1 } from "../src/signature.ts"

describe("hmacSha256V1", () => {
  const secret = "whsec_abc"
  const body = '{"event_id":"evt_1"}'

  it("signs v1=<hex HMAC-SHA256 keyed with the whole secret over <timestamp>.<body>>", () => {
    const expected = createHmac("sha256", secret).update(`1700000000.${body}`).digest("hex")
    expect(hmacSha256V1.sign(secret, 1_700_000_000, body)).toBe(`v1=${expected}`)
  })

  it("accepts when any v1 entry matches, and nothing else", () => {
    const good = hmacSha256V1.sign(secret, 1_700_000_000, body)
    const other = hmacSha256V1.sign("whsec_other", 1_700_000_000, body)
    expect(hmacSha256V1.verify(good, secret, "1700000000", body)).toBe(true)
    expect(hmacSha256V1.verify(`${other}, ${good}`, secret, "1700000000", body)).toBe(true)
    expect(hmacSha256V1.verify(`v2=${good.slice(3)}`, secret, "1700000000", body)).toBe(false)
    expect(hmacSha256V1.verify(other, secret, "1700000000", body)).toBe(false)
    expect(hmacSha256V1.verify(good, secret, "1700000001", body)).toBe(false)
    expect(hmacSha256V1.verify(good, secret, "1700000000", `${body} `)).toBe(false)
    expect(hmacSha256V1.verify("", secret, "1700000000", body)).toBe(false)
  })
})
