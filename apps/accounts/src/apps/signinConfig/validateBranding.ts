import type { Problems } from "./FieldProblem.ts"
import { LOGO_HEIGHT_PX, type PxRange, RADIUS_PX, wholePxProblem } from "./fields.ts"
import { contrastRatio, MIN_TEXT_CONTRAST } from "./contrast.ts"
import type { Palette, PaletteColor } from "./palette.ts"
import type { Branding, Copy } from "./SigninConfig.ts"
import { checkEmail, checkHttpsUrl } from "./urlRules.ts"

/** Foreground on background pairs the hosted page draws text with. */
const TEXT_PAIRS: ReadonlyArray<readonly [PaletteColor, PaletteColor]> = [
  ["text", "background"],
  ["text", "surface"],
  ["muted_text", "background"],
  ["muted_text", "surface"],
  ["primary_text", "primary"]
]

const checkPalette = (name: string, palette: Palette, problems: Problems) => {
  for (const [fg, bg] of TEXT_PAIRS) {
    const ratio = contrastRatio(palette[fg], palette[bg])
    // Shown rounded, but never as 4.5 when it is 4.497.
    if (ratio < MIN_TEXT_CONTRAST) {
      problems.add(
        `branding.${name}.${fg}`,
        `has contrast ${Math.min(Number(ratio.toFixed(2)), 4.49)}:1 against ${bg} ${palette[bg]}; at least ${MIN_TEXT_CONTRAST}:1 is needed`
      )
    }
  }
}

const checkRange = (problems: Problems, field: string, value: number, range: PxRange) => {
  if (!Number.isInteger(value) || value < range.min || value > range.max) problems.add(field, wholePxProblem(range))
}

const FONT_FAMILY = /^[A-Za-z0-9 _,-]{1,100}$/

export const validateBranding = (branding: Branding, problems: Problems): void => {
  if (branding.font_family !== null && (!FONT_FAMILY.test(branding.font_family) || branding.font_family.trim() === "")) {
    problems.add("branding.font_family", "must be 1 to 100 letters, digits, spaces, hyphens, underscores or commas")
  }
  checkRange(problems, "branding.radius", branding.radius, RADIUS_PX)
  checkRange(problems, "branding.logo_height", branding.logo_height, LOGO_HEIGHT_PX)
  checkPalette("light", branding.light, problems)
  checkPalette("dark", branding.dark, problems)
}

const checkText = (problems: Problems, field: string, value: string | null, max: number) => {
  if (value === null) return
  const length = [...value].length
  if (value.trim() === "" || length > max || /[\u0000-\u001f\u007f]/.test(value)) {
    problems.add(field, `must be 1 to ${max} characters, not blank, without control characters`)
  }
}

export const validateCopy = (copy: Copy, problems: Problems): void => {
  checkText(problems, "copy.title", copy.title, 80)
  checkText(problems, "copy.subtitle", copy.subtitle, 200)
  problems.check("copy.terms_url", copy.terms_url, checkHttpsUrl)
  problems.check("copy.privacy_url", copy.privacy_url, checkHttpsUrl)
  problems.check("copy.support_email", copy.support_email, checkEmail)
}
