import { describe, expect, it } from "@effect/vitest"
import { codeChallengeOf, isCodeChallenge, isCodeVerifier, pkceHolds } from "../src/index.ts"

// RFC 7636 Appendix B.
const VERIFIER = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
const S256_CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"

describe("PKCE (RFC 7636)", () => {
  it("derives Appendix B's S256 challenge from its verifier; plain is the verifier itself", () => {
    expect(codeChallengeOf(VERIFIER, "S256")).toBe(S256_CHALLENGE)
    expect(codeChallengeOf(VERIFIER, "plain")).toBe(VERIFIER)
  })

  it("holds for Appendix B's verifier against its challenge, S256 and plain", () => {
    expect(pkceHolds({ value: S256_CHALLENGE, method: "S256" }, VERIFIER)).toBe(true)
    expect(pkceHolds({ value: VERIFIER, method: "plain" }, VERIFIER)).toBe(true)
  })

  it("does not hold for another verifier, a verifier against a plain challenge of its digest, or no verifier", () => {
    const other = `${VERIFIER.slice(0, -1)}A`
    expect(pkceHolds({ value: S256_CHALLENGE, method: "S256" }, other)).toBe(false)
    expect(pkceHolds({ value: S256_CHALLENGE, method: "plain" }, VERIFIER)).toBe(false)
    expect(pkceHolds({ value: S256_CHALLENGE, method: "S256" }, undefined)).toBe(false)
  })

  it("a code issued without a challenge takes no verifier: sending one is a downgrade", () => {
    expect(pkceHolds(null, undefined)).toBe(true)
    expect(pkceHolds(null, VERIFIER)).toBe(false)
  })

  it("a verifier is 43 to 128 characters of A-Z a-z 0-9 - . _ ~, checked before any comparison", () => {
    const short = "a".repeat(42)
    const long = "a".repeat(129)
    expect(isCodeVerifier("a".repeat(43))).toBe(true)
    expect(isCodeVerifier("a".repeat(128))).toBe(true)
    expect(isCodeVerifier(short)).toBe(false)
    expect(isCodeVerifier(long)).toBe(false)
    expect(isCodeVerifier(`${"a".repeat(42)}+`)).toBe(false)
    expect(isCodeVerifier(`${"a".repeat(42)}/`)).toBe(false)
    // A plain challenge equal to a too-short verifier still does not hold.
    expect(pkceHolds({ value: short, method: "plain" }, short)).toBe(false)
    expect(pkceHolds({ value: long, method: "plain" }, long)).toBe(false)
  })

  it("a challenge has the same syntax", () => {
    expect(isCodeChallenge(S256_CHALLENGE)).toBe(true)
    expect(isCodeChallenge("-._~".repeat(11))).toBe(true)
    expect(isCodeChallenge("a".repeat(42))).toBe(false)
    expect(isCodeChallenge(`${"a".repeat(42)}=`)).toBe(false)
  })
})
