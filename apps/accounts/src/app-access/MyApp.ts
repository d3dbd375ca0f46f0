import { Schema } from "effect"

const Timestamp = Schema.String.annotations({ description: "RFC 3339 UTC with milliseconds" })

/** One app the caller has a membership with, as `/v1/me/apps` lists it. */
export const MyApp = Schema.Struct({
  app_id: Schema.String,
  name: Schema.String,
  logo_url: Schema.NullOr(Schema.String),
  status: Schema.Literal("active", "imported", "access_removed").annotations({
    description: "The membership's state: imported until the first sign-in; access_removed once the account removed it"
  }),
  scopes: Schema.Array(Schema.String).annotations({ description: "The scopes the membership granted" }),
  created_at: Timestamp.annotations({ description: "When the membership began" }),
  last_signin_at: Schema.NullOr(Timestamp).annotations({ description: "The latest sign-in to the app; null if never" })
}).annotations({ identifier: "MyApp" })
export type MyApp = typeof MyApp.Type

/** Keyset position of the list (newest membership first): created_at, app_id. */
export const MyAppPosition = Schema.Tuple(Schema.String, Schema.String)

export const MyAppRow = Schema.Struct({
  app_id: Schema.String,
  name: Schema.String,
  logo_url: Schema.NullOr(Schema.String),
  status: Schema.Literal("active", "imported", "access_removed"),
  scopes: Schema.Array(Schema.String),
  created_at: Schema.DateFromSelf,
  last_signin_at: Schema.NullOr(Schema.DateFromSelf)
})
export type MyAppRow = typeof MyAppRow.Type

export const myApp = (row: MyAppRow): MyApp => ({
  ...row,
  created_at: row.created_at.toISOString(),
  last_signin_at: row.last_signin_at === null ? null : row.last_signin_at.toISOString()
})
