import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { MAX_LOGO_BYTES, validateLogoUrl } from "../src/apps/signinConfig/index.ts"

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
const dataUrl = (type: string, bytes: Buffer) => `data:${type};base64,${bytes.toString("base64")}`
const png = (size: number) => Buffer.concat([PNG, Buffer.alloc(size - PNG.length)])
const ok = (input: string) => Either.isRight(validateLogoUrl(input))

describe("app logo URLs", () => {
  it("takes an https URL and refuses other schemes", () => {
    expect(ok("https://cdn.example/logo.png")).toBe(true)
    expect(ok("http://cdn.example/logo.png")).toBe(false)
    expect(ok("javascript:alert(1)")).toBe(false)
  })

  it("takes inline base64 images of the five types up to 128 KB decoded", () => {
    expect(ok(dataUrl("image/png", png(MAX_LOGO_BYTES)))).toBe(true)
    expect(validateLogoUrl(dataUrl("image/png", png(MAX_LOGO_BYTES + 1)))).toEqual(Either.left("must be at most 128 KB"))
    expect(ok(dataUrl("image/jpeg", Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0])))).toBe(true)
    expect(ok(dataUrl("image/gif", Buffer.from("GIF89a\x01\x00", "latin1")))).toBe(true)
    expect(ok(dataUrl("image/webp", Buffer.from("RIFF\x10\x00\x00\x00WEBPVP8 ", "latin1")))).toBe(true)
    expect(ok(dataUrl("image/svg+xml", Buffer.from('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"/>')))).toBe(true)
  })

  it("refuses other types, non-base64 data URLs and content that is not the declared image", () => {
    expect(ok(dataUrl("image/bmp", Buffer.from("BM")))).toBe(false)
    expect(ok(dataUrl("text/html", Buffer.from("<svg>")))).toBe(false)
    expect(ok("data:image/svg+xml,<svg/>")).toBe(false)
    expect(ok(dataUrl("image/png", Buffer.from("<html><script>")))).toBe(false)
    expect(ok(dataUrl("image/svg+xml", Buffer.from("<html><svg/></html>")))).toBe(false)
    expect(ok("data:image/png;base64,")).toBe(false)
    expect(ok("data:image/png;base64,iVBORw0KGgo")).toBe(false)
  })
})
