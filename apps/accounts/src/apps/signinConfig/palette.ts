import { Schema } from "effect"
import { HexColor } from "./fields.ts"

/** The colors of one theme of the hosted sign-in page. */
export const Palette = Schema.Struct({
  background: HexColor,
  surface: HexColor,
  text: HexColor,
  muted_text: HexColor,
  primary: HexColor,
  primary_text: HexColor,
  border: HexColor
}).annotations({ identifier: "SigninPalette" })
export type Palette = typeof Palette.Type
export type PaletteColor = keyof Palette

export const defaultLightPalette: Palette = {
  background: "#ffffff",
  surface: "#f6f7f9",
  text: "#111827",
  muted_text: "#4b5563",
  primary: "#1d4ed8",
  primary_text: "#ffffff",
  border: "#d1d5db"
}

export const defaultDarkPalette: Palette = {
  background: "#0b0f17",
  surface: "#161b26",
  text: "#f3f4f6",
  muted_text: "#9ca3af",
  primary: "#60a5fa",
  primary_text: "#0b0f17",
  border: "#2d3545"
}
