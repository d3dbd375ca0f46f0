import { describe, expect, it } from "@effect/vitest"
import { fixedWindowAt, secondsUntilWindowEnds } from "../src/fixedWindow.ts"

describe("fixedWindowAt", () => {
  it("aligns windows to the epoch", () => {
    expect(fixedWindowAt(0, 60)).toEqual({ startMillis: 0, endMillis: 60_000 })
    expect(fixedWindowAt(59_999, 60)).toEqual({ startMillis: 0, endMillis: 60_000 })
    expect(fixedWindowAt(60_000, 60)).toEqual({ startMillis: 60_000, endMillis: 120_000 })
    expect(fixedWindowAt(1_700_000_123_456, 600)).toEqual({ startMillis: 1_699_999_800_000, endMillis: 1_700_000_400_000 })
  })

  it("rounds the wait up to whole seconds and never answers less than 1", () => {
    const window = fixedWindowAt(0, 60)
    expect(secondsUntilWindowEnds(0, window)).toBe(60)
    expect(secondsUntilWindowEnds(15_500, window)).toBe(45)
    expect(secondsUntilWindowEnds(59_999, window)).toBe(1)
  })
})
