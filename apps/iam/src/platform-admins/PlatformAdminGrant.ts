import { Schema } from "effect"

/** A current platform admin grant (what `npm run iam -- admins grant` prints). */
export const PlatformAdminGrant = Schema.Struct({
  carbon_uuid: Schema.String,
  granted_at: Schema.String,
  granted_by: Schema.NullOr(Schema.String).annotations({ description: "The granting admin's uuid; null when an operator granted it" })
}).annotations({ identifier: "PlatformAdminGrant" })
export type PlatformAdminGrant = typeof PlatformAdminGrant.Type
