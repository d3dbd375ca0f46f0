import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { checkOutboundUrl } from "../src/index.ts"

const development = { production: false, allowLoopback: false }
const loopbackAllowed = { production: false, allowLoopback: true }
const production = { production: true, allowLoopback: false }

const problem = (url: string, policy = development) => Either.getLeft(checkOutboundUrl(url, policy))

describe("checkOutboundUrl", () => {
  it("accepts public https URLs", () => {
    expect(Either.isRight(checkOutboundUrl("https://hooks.example.com/silicon?x=1", production))).toBe(true)
    expect(Either.isRight(checkOutboundUrl("https://93.184.216.34/hook", production))).toBe(true)
  })

  it("refuses private, loopback, link-local and reserved addresses, v4 and v6", () => {
    for (
      const url of [
        "https://10.1.2.3/",
        "https://172.20.0.1/",
        "https://192.168.1.1/",
        "https://127.0.0.1/",
        "https://169.254.169.254/latest/meta-data",
        "https://100.64.0.1/",
        "https://0.0.0.0/",
        "https://[::1]/",
        "https://[fe80::1]/",
        "https://[fd00::1]/",
        "https://[::ffff:10.0.0.1]/",
        "https://224.0.0.1/"
      ]
    ) expect(problem(url), url).toEqual(expect.objectContaining({ _tag: "Some" }))
  })

  it("refuses internal names, credentials, other schemes and overlong URLs", () => {
    expect(problem("https://localhost/")._tag).toBe("Some")
    expect(problem("https://api.localhost/")._tag).toBe("Some")
    expect(problem("https://db.internal/")._tag).toBe("Some")
    expect(problem("https://intranet/")._tag).toBe("Some")
    expect(problem("https://user:pw@example.com/")._tag).toBe("Some")
    expect(problem("ftp://example.com/")._tag).toBe("Some")
    expect(problem("not a url")._tag).toBe("Some")
    expect(problem(`https://example.com/${"a".repeat(2048)}`)._tag).toBe("Some")
  })

  it("takes http only on loopback, and only when development allows loopback", () => {
    expect(problem("http://example.com/")._tag).toBe("Some")
    expect(problem("http://127.0.0.1:8080/hook")._tag).toBe("Some")
    expect(Either.isRight(checkOutboundUrl("http://127.0.0.1:8080/hook", loopbackAllowed))).toBe(true)
    expect(Either.isRight(checkOutboundUrl("http://[::1]:8080/hook", loopbackAllowed))).toBe(true)
    expect(problem("http://10.0.0.1/", loopbackAllowed)._tag).toBe("Some")
    expect(problem("http://127.0.0.1/", { production: true, allowLoopback: true })._tag).toBe("Some")
  })
})
