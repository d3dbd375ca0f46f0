import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * `release_signing_keys`: the Ed25519 keys that sign release manifests. Signing uses the newest active key
 * (highest `position`); older active keys stay valid for the manifests they signed (at most a day). A revoked
 * key loses its private part and stays published with its status, so a client learns not to trust it.
 */
export const ReleaseSigningKeysMigration = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create table release_signing_keys (
      key_id text primary key,
      position bigint generated always as identity unique,
      name text not null,
      algorithm text not null check (algorithm = 'ed25519'),
      public_key text not null,
      private_key text,
      created_at timestamptz not null,
      status text not null check (status in ('active', 'revoked')),
      revoked_at timestamptz,
      revoked_reason text,
      constraint release_signing_keys_lifecycle check (
        (status = 'active' and private_key is not null and revoked_at is null and revoked_reason is null)
        or (status = 'revoked' and private_key is null and revoked_at is not null and revoked_reason is not null)
      )
    )
  `
})
