import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { checkRedirectUri } from "../src/index.ts"

describe("checkRedirectUri", () => {
  it("takes https, and http on loopback unless the policy refuses it", () => {
    expect(checkRedirectUri("https://app.example/cb?x=1")).toEqual(Either.right("https://app.example/cb?x=1"))
    expect(checkRedirectUri("http://localhost:3000/cb")).toEqual(Either.right("http://localhost:3000/cb"))
    expect(checkRedirectUri("http://[::1]/cb", { loopbackHttp: true })).toEqual(Either.right("http://[::1]/cb"))
    expect(checkRedirectUri("http://127.0.0.1/cb", { loopbackHttp: false })).toEqual(Either.left("must use https"))
    expect(checkRedirectUri("http://app.example/cb")).toEqual(Either.left("must use https (http only for localhost, 127.0.0.1 or [::1])"))
  })

  it("refuses a relative URL, a fragment and user info", () => {
    expect(Either.isLeft(checkRedirectUri("/cb"))).toBe(true)
    expect(checkRedirectUri("https://app.example/cb#x")).toEqual(Either.left("must not have a fragment"))
    expect(checkRedirectUri("https://u:p@app.example/cb")).toEqual(Either.left("must not carry a user name or password"))
  })
})
