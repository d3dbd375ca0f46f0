import { describe, expect, it } from "@effect/vitest"
import { contrastRatio, defaultDarkPalette, defaultLightPalette, relativeLuminance } from "../src/apps/signinConfig/index.ts"

describe("WCAG contrast ratio", () => {
  it("matches known pairs", () => {
    expect(contrastRatio("#000000", "#ffffff")).toBe(21)
    expect(contrastRatio("#ffffff", "#000000")).toBe(21)
    expect(contrastRatio("#777777", "#ffffff")).toBeCloseTo(4.48, 2)
    expect(contrastRatio("#767676", "#ffffff")).toBeCloseTo(4.54, 2)
    expect(contrastRatio("#0000ff", "#ffffff")).toBeCloseTo(8.59, 2)
    expect(contrastRatio("#ff0000", "#ffffff")).toBeCloseTo(4.0, 2)
    expect(contrastRatio("#123456", "#123456")).toBe(1)
  })

  it("linearizes sRGB with the 0.04045 threshold", () => {
    expect(relativeLuminance("#0a0a0a")).toBeCloseTo(10 / 255 / 12.92, 10)
    expect(relativeLuminance("#0b0b0b")).toBeCloseTo(((11 / 255 + 0.055) / 1.055) ** 2.4, 10)
    expect(relativeLuminance("#ffffff")).toBe(1)
  })

  it("the default palettes are accessible", () => {
    for (const palette of [defaultLightPalette, defaultDarkPalette]) {
      for (const fg of ["text", "muted_text"] as const) {
        expect(contrastRatio(palette[fg], palette.background)).toBeGreaterThanOrEqual(4.5)
        expect(contrastRatio(palette[fg], palette.surface)).toBeGreaterThanOrEqual(4.5)
      }
      expect(contrastRatio(palette.primary_text, palette.primary)).toBeGreaterThanOrEqual(4.5)
    }
  })
})
