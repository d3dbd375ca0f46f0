import { describe, expect, it } from "@effect/vitest"
import { basicAuthorization, parseBasic } from "../src/index.ts"

const basic = (userPass: string) => `Basic ${Buffer.from(userPass, "utf8").toString("base64")}`

describe("parseBasic (RFC 6749 §2.3.1)", () => {
  it("reads id and secret, the scheme in any case", () => {
    expect(parseBasic(basic("my-app:sas_secret"))).toEqual({ clientId: "my-app", secret: "sas_secret" })
    expect(parseBasic(`basic ${Buffer.from("a:b").toString("base64")}`)).toEqual({ clientId: "a", secret: "b" })
  })

  it("form-url-decodes both parts: %3A is a colon inside them, + a space", () => {
    expect(parseBasic(basic("app%3Aone:se%3Acr+et"))).toEqual({ clientId: "app:one", secret: "se:cr et" })
    expect(parseBasic(basic("my+app:a%2Bb%25c"))).toEqual({ clientId: "my app", secret: "a+b%c" })
    expect(parseBasic(basic("caf%C3%A9:x"))).toEqual({ clientId: "café", secret: "x" })
  })

  it("splits at the first colon, so an unencoded colon stays in the secret", () => {
    expect(parseBasic(basic("app:se:cret"))).toEqual({ clientId: "app", secret: "se:cret" })
  })

  it("splits at the last colon when asked, so an unencoded colon stays in the id", () => {
    expect(parseBasic(basic("si:robot:stk-0f"), "last")).toEqual({ clientId: "si:robot", secret: "stk-0f" })
    expect(parseBasic(basic("si%3Arobot:stk-0f"), "last")).toEqual({ clientId: "si:robot", secret: "stk-0f" })
    expect(parseBasic(basic("si:robot:"), "last")).toEqual({ clientId: "si:robot", secret: "" })
  })

  it("refuses another scheme, no colon, an empty id and a broken percent-encoding", () => {
    expect(parseBasic("Bearer abc")).toBeUndefined()
    expect(parseBasic("Basic")).toBeUndefined()
    expect(parseBasic("Basic !!!")).toBeUndefined()
    expect(parseBasic(basic("no-colon"))).toBeUndefined()
    expect(parseBasic(basic(":secret"))).toBeUndefined()
    expect(parseBasic(basic("app:%E0%A4%A"))).toBeUndefined()
  })
})

describe("basicAuthorization", () => {
  it("form-encodes both parts, so parseBasic reads back any id and secret", () => {
    expect(basicAuthorization("my-app", "acs_secret")).toBe(basic("my-app:acs_secret"))
    expect(basicAuthorization("app:one", "se:cr et+%")).toBe(basic("app%3Aone:se%3Acr+et%2B%25"))
    expect(parseBasic(basicAuthorization("app:one", "se:cr et+%"))).toEqual({ clientId: "app:one", secret: "se:cr et+%" })
  })
})
