/**
 * An oidc-provider adapter (its documented interface: upsert, find, findByUid, findByUserCode,
 * consume, destroy, revokeByGrantId) over PostgreSQL with the `pg` driver: one table per model,
 * each row one JSONB payload with the columns the lookups need (grant_id, uid, user_code) and its
 * expiry. Configured as our accounts server configures its pool against a PostgreSQL server (see
 * packages/database: pg-connection.ts, pgPool.ts): 10 connections, 2-second connect and statement
 * timeouts, and every statement a named prepared statement, planned once per connection.
 */
import type { Adapter, AdapterFactory, AdapterPayload } from "oidc-provider"
import Pg from "pg"

// The models oidc-provider 9 stores (the constructor's list in its example/my_adapter.js).
const models = [
  "Grant",
  "Session",
  "AccessToken",
  "AuthorizationCode",
  "RefreshToken",
  "ClientCredentials",
  "Client",
  "InitialAccessToken",
  "RegistrationAccessToken",
  "DeviceCode",
  "Interaction",
  "ReplayDetection",
  "BackchannelAuthenticationRequest",
  "PreAuthorizedCode",
  "PushedAuthorizationRequest"
]

const tableOf = (model: string) => `oidc_${model.replace(/(?<!^)([A-Z])/g, "_$1").toLowerCase()}`

/** The tables and their indexes, in a database of their own (the bench creates and drops it). */
const schema = models.map((model) => {
  const table = tableOf(model)
  return `CREATE TABLE IF NOT EXISTS ${table} (
    id text PRIMARY KEY,
    payload jsonb NOT NULL,
    grant_id text,
    uid text,
    user_code text,
    expires_at timestamptz
  );
  CREATE INDEX IF NOT EXISTS ${table}_grant_id ON ${table} (grant_id) WHERE grant_id IS NOT NULL;
  CREATE UNIQUE INDEX IF NOT EXISTS ${table}_uid ON ${table} (uid) WHERE uid IS NOT NULL;
  CREATE UNIQUE INDEX IF NOT EXISTS ${table}_user_code ON ${table} (user_code) WHERE user_code IS NOT NULL;`
}).join("\n")

const live = "(expires_at IS NULL OR expires_at > now())"

class PostgresAdapter implements Adapter {
  private readonly table: string

  constructor(private readonly pool: Pg.Pool, model: string) {
    this.table = tableOf(model)
  }

  /** A named statement: pg prepares it once per connection and then only binds and executes it. */
  private async run(operation: string, text: string, values: Array<unknown>) {
    return this.pool.query<{ payload: AdapterPayload }>({ name: `${this.table}_${operation}`, text, values })
  }

  private async one(operation: string, column: string, value: string): Promise<AdapterPayload | undefined> {
    const result = await this.run(operation, `SELECT payload FROM ${this.table} WHERE ${column} = $1 AND ${live}`, [value])
    return result.rows[0]?.payload
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    await this.run(
      "upsert",
      `INSERT INTO ${this.table} (id, payload, grant_id, uid, user_code, expires_at)
       VALUES ($1, $2::jsonb, $3, $4, $5, now() + $6::int * interval '1 second')
       ON CONFLICT (id) DO UPDATE SET payload = excluded.payload, grant_id = excluded.grant_id,
         uid = excluded.uid, user_code = excluded.user_code, expires_at = excluded.expires_at`,
      [id, JSON.stringify(payload), payload.grantId ?? null, payload.uid ?? null, payload.userCode ?? null, expiresIn ?? null]
    )
  }

  find(id: string) {
    return this.one("find", "id", id)
  }

  findByUid(uid: string) {
    return this.one("find_by_uid", "uid", uid)
  }

  findByUserCode(userCode: string) {
    return this.one("find_by_user_code", "user_code", userCode)
  }

  async consume(id: string): Promise<void> {
    await this.run(
      "consume",
      `UPDATE ${this.table} SET payload = payload || jsonb_build_object('consumed', floor(extract(epoch FROM now()))::bigint)
       WHERE id = $1`,
      [id]
    )
  }

  async destroy(id: string): Promise<void> {
    await this.run("destroy", `DELETE FROM ${this.table} WHERE id = $1`, [id])
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.run("revoke_by_grant_id", `DELETE FROM ${this.table} WHERE grant_id = $1`, [grantId])
  }
}

/** Connects to `url`, creates the tables, and answers the adapter factory to give oidc-provider. */
export const postgresAdapter = async (url: string): Promise<AdapterFactory> => {
  const pool = new Pg.Pool({
    connectionString: url,
    max: 10,
    connectionTimeoutMillis: 2000,
    statement_timeout: 2000,
    application_name: "oidc-provider-bench"
  })
  pool.on("error", () => {})
  await pool.query(schema)
  return (model) => new PostgresAdapter(pool, model)
}
