import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** Platform admin grants: a Carbon holds a current grant while its row has no revoked_at (one current grant per Carbon). */
export const PlatformAdminsMigration = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) =>
    sql`
      create table platform_admin_grants (
        id bigint generated always as identity primary key,
        carbon_uuid text not null,
        granted_at timestamptz not null,
        granted_by text,
        revoked_at timestamptz,
        revoked_by text
      );
      create unique index platform_admin_grants_current on platform_admin_grants (carbon_uuid) where revoked_at is null;
    `
)
