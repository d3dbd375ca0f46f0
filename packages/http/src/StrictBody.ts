import type { Schema } from "effect"

/**
 * A body schema that refuses unknown fields and reports every bad field at
 * once (for the endpoints the spec says refuse unknown fields).
 */
export const strict = <S extends Schema.Schema.Any>(schema: S): S =>
  schema.annotations({ parseOptions: { onExcessProperty: "error", errors: "all" } }) as S

/** A body schema that ignores unknown fields but still reports every bad field. */
export const lenient = <S extends Schema.Schema.Any>(schema: S): S =>
  schema.annotations({ parseOptions: { errors: "all" } }) as S
