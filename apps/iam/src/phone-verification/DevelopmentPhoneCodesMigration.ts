import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** The development phone provider's pending codes: one per phone number, digest only. */
export const DevelopmentPhoneCodesMigration = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) =>
    sql`
      create table development_phone_codes (
        phone text primary key,
        code_digest text not null,
        expires_at timestamptz not null
      )
    `
)
