import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { checkOutboundUrl } from "../src/index.ts"

const development = { production: false, allowLoopback: false }
const loopbackAllowed = { production: false, allowLoopback: true }
const production = { production: true, allowLoopback: false }

const accepted = (url: string, policy = production) => Either.isRight(checkOutboundUrl(url, policy))

describe("checkOutboundUrl", () => {
  it.each([
    "https://hooks.example.com/silicon?x=1",
    "https://Hooks.Example.COM./trailing-dot-is-the-same-name",
    "https://münchen.de/hook",
    "https://93.184.216.34/hook",
    "https://8.8.8.8/",
    "https://[2606:4700:4700::1111]/hook",
    "https://[2001:4860:4860::8888]:8443/hook"
  ])("accepts the public URL %s", (url) => {
    expect(accepted(url)).toBe(true)
  })

  it.each([
    // private, loopback, link-local, shared and reserved IPv4
    "https://10.1.2.3/",
    "https://172.20.0.1/",
    "https://192.168.1.1/",
    "https://127.0.0.1/",
    "https://0x7f.1/",
    "https://2130706433/",
    "https://169.254.169.254/latest/meta-data",
    "https://100.64.0.1/",
    "https://0.0.0.0/",
    "https://224.0.0.1/",
    "https://255.255.255.255/",
    "https://192.0.2.1/",
    // IPv6 ranges, and every IPv6 form that embeds an IPv4 address
    "https://[::1]/",
    "https://[::]/",
    "https://[fe80::1]/",
    "https://[fd00::1]/",
    "https://[ff02::1]/",
    "https://[2001:db8::1]/",
    "https://[::ffff:10.0.0.1]/",
    "https://[::ffff:127.0.0.1]/",
    "https://[::7f00:1]/",
    "https://[::a9fe:a9fe]/",
    "https://[::a00:1]/",
    "https://[::127.0.0.1]/",
    "https://[::ffff:0:7f00:1]/",
    "https://[64:ff9b::a9fe:a9fe]/",
    "https://[64:ff9b:1::a00:1]/",
    "https://[2002:7f00:1::]/",
    "https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/",
    // internal names, with trailing dots, in any case
    "https://localhost/",
    "https://localhost./",
    "https://localhost../",
    "https://LOCALHOST./",
    "https://api.localhost/",
    "https://foo.localhost./",
    "https://db.internal/",
    "https://metadata.google.internal/",
    "https://metadata.google.internal./",
    "https://x.internal./",
    "https://intranet/",
    "https://intranet./",
    "https://printer.local/",
    "https://router.home.arpa./"
  ])("refuses %s", (url) => {
    expect(accepted(url, development)).toBe(false)
    expect(accepted(url, production)).toBe(false)
  })

  it.each([
    "https://user:pw@example.com/",
    "ftp://example.com/",
    "not a url",
    `https://example.com/${"a".repeat(2048)}`
  ])("refuses credentials, other schemes, non-URLs and overlong URLs: %s", (url) => {
    expect(accepted(url, development)).toBe(false)
  })

  it("takes http only on loopback, and only when development allows loopback", () => {
    expect(accepted("http://example.com/", development)).toBe(false)
    expect(accepted("http://127.0.0.1:8080/hook", development)).toBe(false)
    expect(accepted("http://127.0.0.1:8080/hook", loopbackAllowed)).toBe(true)
    expect(accepted("http://[::1]:8080/hook", loopbackAllowed)).toBe(true)
    expect(accepted("http://localhost.:8080/hook", loopbackAllowed)).toBe(true)
    expect(accepted("http://10.0.0.1/", loopbackAllowed)).toBe(false)
    expect(accepted("https://[::7f00:1]/", loopbackAllowed)).toBe(false)
    expect(accepted("http://127.0.0.1/", { production: true, allowLoopback: true })).toBe(false)
  })
})
