import { describe, expect, it } from "@effect/vitest"
import { codeDigest, codeMatches } from "../src/codeDigest.ts"
import { addressKey, maskDestination } from "../src/destination.ts"

describe("verification destinations", () => {
  it("masks an email down to its first letter and domain", () => {
    expect(maskDestination("email", "jane@example.com")).toBe("j***@example.com")
    expect(maskDestination("email", "j@example.com")).toBe("***@example.com")
    expect(maskDestination("email", "not-an-email")).toBe("***")
  })

  it("masks a phone number but its first two and last three digits", () => {
    expect(maskDestination("sms", "+447700900789")).toBe("+44*******789")
    expect(maskDestination("sms", "+15551234567")).toBe("+15******567")
    expect(maskDestination("sms", "+1234567")).toBe("+*****67")
  })

  it("keeps channels apart in the address key", () => {
    expect(addressKey("email", "x")).not.toBe(addressKey("sms", "x"))
  })
})

describe("verification code digests", () => {
  it("binds the code to its challenge", () => {
    const digest = codeDigest("vch_a", "123456")
    expect(digest).toMatch(/^[0-9a-f]{64}$/)
    expect(codeMatches(digest, "vch_a", "123456")).toBe(true)
    expect(codeMatches(digest, "vch_a", "123457")).toBe(false)
    expect(codeMatches(digest, "vch_b", "123456")).toBe(false)
  })
})
