import { Schema } from "effect"
import { PublicApplication } from "./Application.ts"

/** A bundle: one id naming several applications, signed in to together through one organization picker. */
export const Bundle = Schema.Struct({
  bundle_id: Schema.String,
  applications: Schema.Array(PublicApplication).annotations({ description: "In the order the bundle lists them" }),
  created_at: Schema.String
}).annotations({ identifier: "Bundle" })
export type Bundle = typeof Bundle.Type
