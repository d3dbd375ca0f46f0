import type { Branding } from "../apps/signinConfig/SigninConfig.ts"
import type { Palette } from "../apps/signinConfig/palette.ts"

const SYSTEM_FONTS = "system-ui, -apple-system, \"Segoe UI\", Roboto, sans-serif"

const colors = (palette: Palette, scheme: "light" | "dark") =>
  `color-scheme:${scheme};--bg:${palette.background};--surface:${palette.surface};--text:${palette.text};` +
  `--muted:${palette.muted_text};--primary:${palette.primary};--on-primary:${palette.primary_text};--border:${palette.border}`

/**
 * The app's branding as CSS custom properties, the only inline style of a page
 * (allowed by its hash in the Content-Security-Policy). Every value was
 * validated when the config was saved: colors are #rrggbb, the font family
 * letters, digits, spaces, hyphens, underscores and commas, sizes whole pixels.
 */
export const brandStyle = (branding: Branding): string => {
  const font = branding.font_family === null ? SYSTEM_FONTS : `${branding.font_family}, ${SYSTEM_FONTS}`
  const shape = `--radius:${branding.radius}px;--logo-height:${branding.logo_height}px;--font:${font}`
  switch (branding.theme) {
    case "light":
      return `:root{${shape};${colors(branding.light, "light")}}`
    case "dark":
      return `:root{${shape};${colors(branding.dark, "dark")}}`
    case "auto":
      return `:root{${shape};${colors(branding.light, "light")}}` +
        `@media (prefers-color-scheme: dark){:root{${colors(branding.dark, "dark")}}}`
  }
}
