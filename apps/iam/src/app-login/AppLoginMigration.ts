import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Consent and handoffs of the application login. A consent is what one identity allowed one application
 * at one scope_version (written only by a direct IAM credential: the bearer API or the browser session);
 * a handoff is one login for one or more applications, recorded with where its tokens were sent.
 */
export const AppLoginMigration = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create table app_consents (
      identity_uuid text not null references identities (uuid),
      app_id text not null references applications (app_id),
      scopes jsonb not null,
      scope_version integer not null,
      consented_at timestamptz not null,
      primary key (identity_uuid, app_id)
    )
  `
  yield* sql`
    create table app_login_handoffs (
      request_id text primary key,
      identity_uuid text not null references identities (uuid),
      session_id text not null references iam_sessions (id),
      via text not null check (via in ('api', 'page')),
      app_ids jsonb not null,
      return_to text,
      created_at timestamptz not null,
      check ((via = 'page') = (return_to is not null))
    )
  `
  yield* sql`create index app_login_handoffs_identity on app_login_handoffs (identity_uuid, created_at desc)`
})
