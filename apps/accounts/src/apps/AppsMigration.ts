import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { DEVELOPER_APP_ID, FIRST_PARTY_APP_ID } from "./AppId.ts"
import { defaultSigninConfig } from "./signinConfig/defaults.ts"

/**
 * Apps, their authors, their sign-in setup history and the accounts' memberships.
 *
 * - `apps`: one row per app whatever its source (`registry_app` synced from the
 *   registry, `fake` made by the operator command, `first_party` seeded here).
 *   `secret_hash` is the SHA-256 of the app secret (high-entropy, so a fast
 *   digest is enough), null for public clients. `signin_config` is the whole
 *   current config; `idp_secrets` holds the sealed write-only idp secrets.
 * - `app_authors`: the owner and co-authors who manage the app.
 * - `app_config_versions`: every signin_config version, kept for good.
 * - `memberships`: an account's membership with an app (`<app_id>:<uuid>`), its
 *   state and the scopes granted to that app.
 */
export const AppsMigration = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE apps (
      app_id text PRIMARY KEY,
      name text NOT NULL,
      description text,
      homepage_url text,
      logo_url text,
      logo_dark_url text,
      owner_uuid text REFERENCES accounts (uuid),
      status text NOT NULL CHECK (status IN ('active', 'disabled')),
      source text NOT NULL CHECK (source IN ('registry_app', 'fake', 'first_party')),
      secret_hash text,
      signin_config jsonb NOT NULL,
      config_version integer NOT NULL CHECK (config_version >= 1),
      idp_secrets jsonb NOT NULL DEFAULT '{}',
      webhook_url text,
      webhook_secret text,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )
  `
  yield* sql`CREATE INDEX apps_by_owner ON apps (owner_uuid, created_at DESC)`
  yield* sql`
    CREATE TABLE app_authors (
      app_id text NOT NULL REFERENCES apps (app_id) ON DELETE CASCADE,
      account_uuid text NOT NULL REFERENCES accounts (uuid),
      role text NOT NULL CHECK (role IN ('owner', 'coauthor')),
      PRIMARY KEY (app_id, account_uuid)
    )
  `
  yield* sql`CREATE INDEX app_authors_by_account ON app_authors (account_uuid)`
  yield* sql`
    CREATE TABLE app_config_versions (
      app_id text NOT NULL REFERENCES apps (app_id) ON DELETE CASCADE,
      version integer NOT NULL,
      signin_config jsonb NOT NULL,
      changed_by text,
      changed_at timestamptz NOT NULL,
      PRIMARY KEY (app_id, version)
    )
  `
  yield* sql`
    CREATE TABLE memberships (
      app_id text NOT NULL REFERENCES apps (app_id),
      account_uuid text NOT NULL REFERENCES accounts (uuid),
      status text NOT NULL CHECK (status IN ('active', 'imported', 'access_removed')),
      scopes jsonb NOT NULL DEFAULT '[]',
      created_at timestamptz NOT NULL,
      last_signin_at timestamptz,
      PRIMARY KEY (app_id, account_uuid)
    )
  `
  yield* sql`CREATE INDEX memberships_by_account ON memberships (account_uuid)`
  // The first-party public clients exist from the start: the account site (`accounts`) and the client developer's tools.
  const config = JSON.stringify(defaultSigninConfig)
  for (const [appId, name] of [[FIRST_PARTY_APP_ID, "Accounts"], [DEVELOPER_APP_ID, "Developer tools"]] as const) {
    yield* sql`
      INSERT INTO apps (app_id, name, status, source, signin_config, config_version, created_at, updated_at)
      VALUES (${appId}, ${name}, 'active', 'first_party', ${config}::jsonb, 1, now(), now())
    `
    yield* sql`
      INSERT INTO app_config_versions (app_id, version, signin_config, changed_at) VALUES (${appId}, 1, ${config}::jsonb, now())
    `
  }
})

/**
 * `id_token_signed_response_alg` (OpenID Connect Dynamic Client Registration §2): how the app's
 * id tokens are signed, EdDSA (the Ed25519 key) or RS256 (the RSA key) for relying parties
 * without EdDSA. Existing apps keep EdDSA.
 */
export const AppsIdTokenAlgMigration = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    ALTER TABLE apps ADD COLUMN id_token_signed_response_alg text NOT NULL DEFAULT 'EdDSA'
      CHECK (id_token_signed_response_alg IN ('EdDSA', 'RS256'))
  `
})
