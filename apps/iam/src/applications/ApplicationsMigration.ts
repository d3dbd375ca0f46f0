import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Applications registered in IAM (client secret as a SHA-256 digest; scopes, events and callback URLs as JSON
 * arrays), the critical scopes they asked for with a platform admin's decision, and bundles of applications.
 */
export const ApplicationsMigration = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) =>
    sql`
      create table applications (
        app_id text primary key,
        name text not null,
        secret_digest text not null,
        app_scope jsonb not null,
        webhook_scope jsonb not null,
        consent_required boolean not null,
        scope_version integer not null,
        callback_urls jsonb not null,
        owner_uuid text,
        organization_id text,
        created_at timestamptz not null,
        secret_rotated_at timestamptz not null
      );
      create table application_scope_requests (
        app_id text not null references applications (app_id),
        scope text not null,
        requested_at timestamptz not null,
        status text not null check (status in ('pending', 'approved', 'rejected')),
        decided_by text,
        decided_at timestamptz,
        primary key (app_id, scope)
      );
      create index application_scope_requests_pending on application_scope_requests (app_id) where status = 'pending';
      create table application_bundles (
        bundle_id text primary key,
        created_at timestamptz not null
      );
      create table application_bundle_members (
        bundle_id text not null references application_bundles (bundle_id),
        app_id text not null references applications (app_id),
        position integer not null,
        primary key (bundle_id, app_id)
      );
    `
)
