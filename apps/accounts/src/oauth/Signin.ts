import { columnsOf } from "@platform/database"
import { Schema } from "effect"

export const SigninMethod = Schema.Literal("cli_code", "device", "stk", "assertion", "hosted", "short_lived_token", "federation")
export type SigninMethod = typeof SigninMethod.Type

/** A sign-in as stored. */
export const SigninRow = Schema.Struct({
  id: Schema.String,
  account_uuid: Schema.String,
  client_id: Schema.String,
  client_label: Schema.NullOr(Schema.String),
  method: SigninMethod,
  created_at: Schema.DateFromSelf,
  expires_at: Schema.DateFromSelf,
  last_used_at: Schema.DateFromSelf,
  revoked_at: Schema.NullOr(Schema.DateFromSelf),
  revoked_reason: Schema.NullOr(Schema.String)
})
export type SigninRow = typeof SigninRow.Type

/** SigninRow's columns, bare and for a `signins s` alias. */
export const SIGNIN_COLUMNS = columnsOf(SigninRow.fields)
export const SIGNIN_COLUMNS_OF_S = columnsOf(SigninRow.fields, "s")

/** What a token response needs of the sign-in it comes from. */
export type IssuedSignin = Pick<SigninRow, "id" | "account_uuid" | "expires_at">

/** The session entry an account sees of its own sign-ins (GET /v1/session, /v1/me/sessions). */
export const Session = Schema.Struct({
  id: Schema.String,
  client_id: Schema.String,
  client_label: Schema.NullOr(Schema.String),
  method: SigninMethod,
  created_at: Schema.String,
  last_used_at: Schema.String,
  expires_at: Schema.String,
  current: Schema.Boolean
}).annotations({ identifier: "Session" })

export const sessionOf = (row: SigninRow, currentId: string): typeof Session.Type => ({
  id: row.id,
  client_id: row.client_id,
  client_label: row.client_label,
  method: row.method,
  created_at: row.created_at.toISOString(),
  last_used_at: row.last_used_at.toISOString(),
  expires_at: row.expires_at.toISOString(),
  current: row.id === currentId
})
