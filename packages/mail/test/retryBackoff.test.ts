import { describe, expect, it } from "@effect/vitest"
import { Duration } from "effect"
import { retryDelayAfter } from "../src/retryBackoff.ts"

describe("retryDelayAfter", () => {
  it("doubles from 2 seconds and stops growing at 5 minutes", () => {
    expect([1, 2, 3, 7].map((failed) => Duration.toSeconds(retryDelayAfter(failed)))).toEqual([2, 4, 8, 128])
    expect(Duration.toSeconds(retryDelayAfter(9))).toBe(300)
    expect(Duration.toSeconds(retryDelayAfter(40))).toBe(300)
  })
})
