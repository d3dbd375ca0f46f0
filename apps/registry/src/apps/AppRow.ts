import { Schema } from "effect"

/** An `apps` row as the catalogue stores it. */
export const AppRow = Schema.Struct({
  app_id: Schema.String,
  name: Schema.String,
  description: Schema.NullOr(Schema.String),
  logo: Schema.NullOr(Schema.String),
  banner: Schema.NullOr(Schema.String),
  carousel: Schema.Unknown,
  links: Schema.Unknown,
  tags: Schema.Array(Schema.String),
  setup_step: Schema.Number,
  status: Schema.Literal("draft", "published"),
  visibility: Schema.Literal("public", "private"),
  domains: Schema.Array(Schema.String),
  account_ids: Schema.Array(Schema.String),
  administrator_uuid: Schema.String,
  rating: Schema.NullOr(Schema.Union(Schema.Number, Schema.NumberFromString)),
  installs: Schema.Union(Schema.Number, Schema.NumberFromString),
  created_by: Schema.String,
  created_at: Schema.DateFromSelf,
  updated_at: Schema.DateFromSelf,
  published_at: Schema.NullOr(Schema.DateFromSelf)
})
export type AppRow = typeof AppRow.Type
