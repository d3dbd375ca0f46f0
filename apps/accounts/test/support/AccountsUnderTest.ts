import type { SqlClient } from "@effect/sql"
import type { PgClient } from "@effect/sql-pg"
import { TestDatabase } from "@platform/database"
import { serviceUnderTest, testMailbox, typedClient } from "@platform/testkit"
import { Context, Layer, Option } from "effect"
import { AccountsApi } from "../../src/api.ts"
import { AccountsConfigOf, type AccountsSettings, IDP_A_DEFAULT_ISSUER, IDP_B_DEFAULT_ISSUER } from "../../src/config.ts"
import { AccountsStoresLive } from "../../src/layers.ts"
import { accountsMigrations } from "../../src/migrations.ts"
import { AccountsServer } from "../../src/server.ts"

export interface RunningAccounts {
  readonly url: string
  readonly settings: AccountsSettings
}

/** The accounts service, started over real HTTP on a free port for one test file. */
export class AccountsUnderTest extends Context.Tag("test/AccountsUnderTest")<AccountsUnderTest, RunningAccounts>() {}

export const testSettings = (port: number, overrides: Partial<AccountsSettings> = {}): AccountsSettings => ({
  port,
  host: "127.0.0.1",
  publicUrl: `http://127.0.0.1:${port}`,
  appsUrl: "http://127.0.0.1:4300",
  environment: "development",
  trustProxy: false,
  webhookAllowLoopback: false,
  issuerExtraCa: Option.none(),
  internalToken: Option.none(),
  keyEncryptionKey: Option.none(),
  drainSeconds: 1,
  keysRefreshSeconds: 10,
  streamsPerServer: 500,
  importWaitSeconds: 30,
  importTimeBudgetSeconds: 300,
  idpA: { issuer: IDP_A_DEFAULT_ISSUER, client: Option.none() },
  idpB: { issuer: IDP_B_DEFAULT_ISSUER, client: Option.none() },
  ...overrides
})

/** One accounts server over the given database layer (share one database layer to run two servers on it). */
export const accountsServerOn = <E>(
  database: Layer.Layer<SqlClient.SqlClient | PgClient.PgClient, E>,
  overrides: Partial<AccountsSettings> = {}
) =>
  serviceUnderTest((port) => {
    const settings = testSettings(port, overrides)
    return AccountsServer.pipe(
      Layer.provideMerge(testMailbox),
      // The stores, the database and the settings stay visible to the test, e.g. to sign with the server's keys.
      Layer.provideMerge(Layer.fresh(AccountsStoresLive)),
      Layer.provideMerge(database),
      Layer.provideMerge(AccountsConfigOf(settings)),
      Layer.merge(Layer.succeed(AccountsUnderTest, { url: settings.publicUrl, settings }))
    )
  })

/** The accounts API as a typed client of the server under test, sending `headers` with every request. */
export const accountsClient = (headers: Readonly<Record<string, string>> = {}) => typedClient(AccountsApi, { headers })

/**
 * The accounts service on its own fresh database. A server under test keeps real time: use it with
 * `layer(AccountsTest(), { excludeTestServices: true })`; time travel belongs to service-level tests.
 */
export const AccountsTest = (overrides: Partial<AccountsSettings> = {}) =>
  accountsServerOn(TestDatabase.layer(accountsMigrations), overrides)
