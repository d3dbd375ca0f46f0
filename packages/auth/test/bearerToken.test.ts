import { describe, expect, it } from "@effect/vitest"
import { bearerToken } from "../src/index.ts"

describe("bearerToken (RFC 6750 §2.1)", () => {
  it("reads the token after the Bearer scheme, in any case, around extra spaces", () => {
    expect(bearerToken("Bearer abc.DEF-ghi_~+/=")).toBe("abc.DEF-ghi_~+/=")
    expect(bearerToken("bearer abc")).toBe("abc")
    expect(bearerToken("  BEARER   abc  ")).toBe("abc")
  })

  it("refuses a missing header, an empty one, a bare scheme and an empty token", () => {
    expect(bearerToken(undefined)).toBeUndefined()
    expect(bearerToken("")).toBeUndefined()
    expect(bearerToken("Bearer")).toBeUndefined()
    expect(bearerToken("Bearer ")).toBeUndefined()
    expect(bearerToken("Bearer    ")).toBeUndefined()
  })

  it("refuses another scheme, a token without its scheme and characters outside b64token", () => {
    expect(bearerToken("Basic YWxpY2U6c2VjcmV0")).toBeUndefined()
    expect(bearerToken("abc")).toBeUndefined()
    expect(bearerToken("Bearerabc")).toBeUndefined()
    expect(bearerToken("Bearer abc def")).toBeUndefined()
    expect(bearerToken("Bearer abc!")).toBeUndefined()
    expect(bearerToken("Bearer =abc")).toBeUndefined()
  })
})
