import { Schema } from "effect"

export const IdentityKind = Schema.Literal("carbon", "silicon")
export type IdentityKind = typeof IdentityKind.Type

/** An accounts identity as IAM last saw it: uuid and id (`c:`/`si:` handle) are accounts' own. */
export const Identity = Schema.Struct({
  uuid: Schema.String,
  id: Schema.String,
  kind: IdentityKind,
  display_name: Schema.String,
  status: Schema.String
}).annotations({ identifier: "Identity" })
export type Identity = typeof Identity.Type
