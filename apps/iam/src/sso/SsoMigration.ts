import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Organization SSO: a platform admin's entitlement, one-use setup links (digests only), OpenID Connect
 * connections (client and webhook secrets sealed), the login round trips, and which IAM sessions
 * each connection opened (so a provider's deprovisioning ends them). IAM sessions may now be opened by `sso`.
 */
export const SsoMigration = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) =>
    sql`
      create table sso_entitlements (
        organization_id text primary key references organizations (id),
        max_connections integer not null,
        granted_by text not null,
        granted_at timestamptz not null
      );
      create table sso_setup_links (
        id text primary key,
        organization_id text not null references organizations (id),
        token_digest text not null unique,
        created_by text not null,
        created_at timestamptz not null,
        expires_at timestamptz not null,
        used_at timestamptz
      );
      create table sso_connections (
        id text primary key,
        organization_id text not null references organizations (id),
        issuer text not null,
        client_id text not null,
        client_secret text not null,
        webhook_secret text not null,
        status text not null check (status in ('pending', 'active', 'inactive')),
        setup_link_id text not null references sso_setup_links (id),
        created_at timestamptz not null,
        updated_at timestamptz not null
      );
      create index sso_connections_organization on sso_connections (organization_id, created_at);
      create table sso_login_attempts (
        state_digest text primary key,
        connection_id text not null references sso_connections (id),
        nonce text not null,
        code_verifier text not null,
        return_to text not null,
        expires_at timestamptz not null,
        used_at timestamptz
      );
      create table sso_sessions (
        session_id text primary key references iam_sessions (id),
        connection_id text not null references sso_connections (id),
        identity_uuid text not null,
        subject text not null,
        email text not null
      );
      create index sso_sessions_connection on sso_sessions (connection_id, subject);
      alter table iam_sessions drop constraint iam_sessions_method_check;
      alter table iam_sessions add constraint iam_sessions_method_check check (method in ('code', 'silicon_token', 'sso'));
    `
)
