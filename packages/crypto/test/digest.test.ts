import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import { constantTimeEqual, sha256Hex } from "../src/index.ts"

describe("sha256Hex", () => {
  it("matches the known digest of 'abc'", () => {
    expect(sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
  })
})

describe("constantTimeEqual", () => {
  it.prop("is string equality", [FastCheck.string(), FastCheck.string()], ([a, b]) => {
    expect(constantTimeEqual(a, b)).toBe(a === b)
    expect(constantTimeEqual(a, a)).toBe(true)
  })

  it("handles different lengths without throwing", () => {
    expect(constantTimeEqual("short", "a much longer string")).toBe(false)
    expect(constantTimeEqual("", "")).toBe(true)
  })
})
