import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import { randomDigits, randomHex, randomToken } from "../src/index.ts"

describe("randomToken", () => {
  it("is the prefix followed by unpadded base64url of the requested bytes", () => {
    const token = randomToken("sac_")
    expect(token).toMatch(/^sac_[A-Za-z0-9_-]{43}$/)
    expect(Buffer.from(token.slice(4), "base64url")).toHaveLength(32)
    expect(randomToken("x_", 16)).toMatch(/^x_[A-Za-z0-9_-]{22}$/)
  })

  it("refuses fewer than 128 bits", () => {
    expect(() => randomToken("x_", 15)).toThrow(RangeError)
  })

  it("does not repeat", () => {
    const tokens = new Set(Array.from({ length: 1000 }, () => randomToken("t_")))
    expect(tokens.size).toBe(1000)
  })
})

describe("randomHex", () => {
  it.prop("gives exactly the requested number of lowercase hex characters", [FastCheck.integer({ min: 1, max: 80 })], ([length]) => {
    expect(randomHex(length)).toMatch(new RegExp(`^[0-9a-f]{${length}}$`))
  })

  it("refuses a non-positive length", () => {
    expect(() => randomHex(0)).toThrow(RangeError)
  })
})

describe("randomDigits", () => {
  it.prop("gives exactly the requested number of digits", [FastCheck.integer({ min: 1, max: 40 })], ([length]) => {
    expect(randomDigits(length)).toMatch(new RegExp(`^[0-9]{${length}}$`))
  })

  it("keeps leading zeros and uses every digit about equally often", () => {
    const counts = new Array<number>(10).fill(0)
    const samples = 20_000
    let lengthsOk = true
    for (let i = 0; i < samples; i++) {
      const code = randomDigits(6)
      lengthsOk &&= code.length === 6
      for (const digit of code) counts[Number(digit)]! += 1
    }
    expect(lengthsOk).toBe(true)
    // 120 000 draws: each digit expects 12 000 with a standard deviation near 104; 6 sigma is never hit by chance.
    for (const count of counts) expect(Math.abs(count - 12_000)).toBeLessThan(650)
  })
})
