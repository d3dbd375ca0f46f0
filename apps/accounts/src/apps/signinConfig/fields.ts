import { Schema } from "effect"

/** The leaf value types of a signin_config (shape only; value rules live in the validators). */

export const Method = Schema.Literal("idp_a", "idp_b", "email", "phone")
export type Method = typeof Method.Type
export const allMethods: ReadonlyArray<Method> = ["idp_a", "idp_b", "email", "phone"]

export const IdpMode = Schema.Literal("managed", "byo")

export const IdpAPrompt = Schema.Literal("select_account", "consent", "none", "consent select_account")

/** Account details an app may ask for (the scopes beyond profile). */
export const DetailName = Schema.Literal("email", "phone", "dob", "timezone")
export type DetailName = typeof DetailName.Type

export const Theme = Schema.Literal("auto", "light", "dark")

/** A color as #rrggbb; upper case is accepted and stored lower case, so equal colors compare equal. */
export const HexColor = Schema.compose(
  Schema.Lowercase,
  Schema.String.pipe(Schema.pattern(/^#[0-9a-f]{6}$/, { message: () => "must be a color written #rrggbb" }))
).annotations({ identifier: "HexColor", description: "#rrggbb" })

/** The range of a size in px; validateBranding checks it, so every size problem comes back at once by field. */
export interface PxRange {
  readonly min: number
  readonly max: number
}
export const RADIUS_PX: PxRange = { min: 0, max: 40 }
export const LOGO_HEIGHT_PX: PxRange = { min: 16, max: 96 }

/** The 422 message of a size: the same whether the patch is refused for a fraction or the config for its range. */
export const wholePxProblem = ({ max, min }: PxRange) => `must be a whole number of px from ${min} to ${max}`

/** A size in whole px (never a fraction, NaN or infinity); its range is checked by validateBranding. */
export const WholePx = (range: PxRange, description: string) =>
  Schema.Int.annotations({ description: `${description} in px, ${range.min} to ${range.max}`, message: () => wholePxProblem(range) })
