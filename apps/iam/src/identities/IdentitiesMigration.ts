import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** IAM's projection of the accounts identities it has seen (accounts stays the one identity store). */
export const IdentitiesMigration = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) =>
    sql`
      create table identities (
        uuid text primary key,
        handle text not null,
        kind text not null check (kind in ('carbon', 'silicon')),
        display_name text not null,
        status text not null,
        refreshed_at timestamptz not null
      )
    `
)
