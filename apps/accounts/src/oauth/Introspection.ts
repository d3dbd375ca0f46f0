import { Schema } from "effect"

/** RFC 7662 §2.2. Anything not live is `{active: false}` and nothing more. */
export const IntrospectionResponse = Schema.Struct({
  active: Schema.Boolean,
  scope: Schema.optional(Schema.String),
  client_id: Schema.optional(Schema.String),
  username: Schema.optional(Schema.String).annotations({ description: "The account's c: or si: id" }),
  token_type: Schema.optional(Schema.String).annotations({ description: "Bearer for access tokens; refresh_token for refresh tokens" }),
  exp: Schema.optional(Schema.Int),
  iat: Schema.optional(Schema.Int),
  sub: Schema.optional(Schema.String),
  aud: Schema.optional(Schema.String),
  iss: Schema.optional(Schema.String),
  membership_id: Schema.optional(Schema.String)
}).annotations({ identifier: "IntrospectionResponse" })
export type IntrospectionResponse = typeof IntrospectionResponse.Type
