import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"

/** Most emails and most phones one Carbon may hold (spec 1, Sizes and counts). */
export const CONTACTS_PER_CHANNEL = 10

/**
 * Accounts, their ids and contact details.
 *
 * - `account_uuid_allocator`: one row counting the uuids handed out; taken with
 *   `UPDATE … RETURNING` inside the creating transaction, so allocations are
 *   gap-free, serialized and never repeat (see uuidPermutation.ts).
 * - `accounts.handle`: lower-case only, unique across both kinds, so `c:ada`
 *   and `si:ada` cannot belong to two accounts; null once a deleted Silicon's
 *   id is freed (a Carbon always has one).
 * - `account_id_reservations`: a changed-away handle held for its previous owner.
 * - `account_emails` / `account_phones`: normalized addresses; an address is
 *   verified on at most one account; one primary per account, and only a
 *   verified address can be primary; at most 10 per account, enforced by a
 *   trigger that locks the account row so concurrent adds cannot overshoot.
 */
export const AccountsMigration: Effect.Effect<void, SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE account_uuid_allocator (
      singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
      next_index bigint NOT NULL CHECK (next_index >= 0)
    )
  `
  yield* sql`INSERT INTO account_uuid_allocator (singleton, next_index) VALUES (true, 0)`
  yield* sql`
    CREATE TABLE accounts (
      uuid text PRIMARY KEY CHECK (uuid ~ '^[A-Za-z0-9]{3,8}$'),
      kind text NOT NULL CHECK (kind IN ('carbon', 'silicon')),
      handle text CHECK (handle ~ '^[a-z0-9_-]{3,30}$'),
      display_name text NOT NULL,
      pfp_url text,
      dob date,
      timezone text NOT NULL,
      status text NOT NULL CHECK (status IN ('active', 'pending_custodian', 'deleted')),
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      version integer NOT NULL CHECK (version >= 1),
      CONSTRAINT accounts_carbon_has_handle CHECK (kind <> 'carbon' OR handle IS NOT NULL)
    )
  `
  yield* sql`CREATE UNIQUE INDEX accounts_handle_key ON accounts (handle)`
  yield* sql`
    CREATE TABLE account_id_reservations (
      handle text PRIMARY KEY CHECK (handle ~ '^[a-z0-9_-]{3,30}$'),
      account_uuid text NOT NULL REFERENCES accounts (uuid) ON DELETE CASCADE,
      reserved_until timestamptz NOT NULL,
      created_at timestamptz NOT NULL
    )
  `
  yield* sql`CREATE INDEX account_id_reservations_account_idx ON account_id_reservations (account_uuid)`
  yield* sql`CREATE INDEX account_id_reservations_until_idx ON account_id_reservations (reserved_until)`
  yield* sql`
    CREATE FUNCTION account_contacts_within_limit() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      held integer;
    BEGIN
      PERFORM 1 FROM accounts WHERE uuid = NEW.account_uuid FOR NO KEY UPDATE;
      EXECUTE format('SELECT count(*) FROM %I WHERE account_uuid = $1', TG_TABLE_NAME) INTO held USING NEW.account_uuid;
      IF held >= TG_ARGV[0]::integer THEN
        RAISE EXCEPTION 'account % already has % entries in %', NEW.account_uuid, held, TG_TABLE_NAME
          USING ERRCODE = 'check_violation', CONSTRAINT = TG_TABLE_NAME || '_limit', TABLE = TG_TABLE_NAME;
      END IF;
      RETURN NEW;
    END
    $$
  `
  for (const [table, addressCheck] of [
    ["account_emails", "address = lower(btrim(address)) AND address LIKE '_%@_%'"],
    ["account_phones", "address ~ '^\\+[1-9][0-9]{6,14}$'"]
  ] as const) {
    yield* sql.unsafe(`
      CREATE TABLE ${table} (
        account_uuid text NOT NULL REFERENCES accounts (uuid) ON DELETE CASCADE,
        address text NOT NULL CHECK (${addressCheck}),
        verified_at timestamptz,
        is_primary boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL,
        PRIMARY KEY (account_uuid, address),
        CONSTRAINT ${table}_primary_is_verified CHECK (NOT is_primary OR verified_at IS NOT NULL)
      )
    `)
    yield* sql.unsafe(`CREATE UNIQUE INDEX ${table}_one_primary ON ${table} (account_uuid) WHERE is_primary`)
    yield* sql.unsafe(
      `CREATE UNIQUE INDEX ${table}_verified_address ON ${table} (address) WHERE verified_at IS NOT NULL`
    )
    yield* sql.unsafe(`CREATE INDEX ${table}_address_idx ON ${table} (address)`)
    yield* sql.unsafe(`
      CREATE TRIGGER ${table}_limit BEFORE INSERT OR UPDATE OF account_uuid ON ${table}
      FOR EACH ROW EXECUTE FUNCTION account_contacts_within_limit('${CONTACTS_PER_CHANNEL}')
    `)
  }
})
