import type { SqlClient } from "@effect/sql"
import type { PgClient } from "@effect/sql-pg"
import { AccountsDirectory, type FakeAccounts } from "@platform/accounts-identity-api"
import { encryptionKeyFromBytes } from "@platform/crypto"
import { TestDatabase } from "@platform/database"
import { serviceTestSettings, serviceUnderTest, testMailbox, typedClient } from "@platform/testkit"
import { Context, Layer, Option } from "effect"
import { IamApi } from "../../src/api.ts"
import { IamConfigOf, type IamSettings } from "../../src/config.ts"
import { IamStoresLive } from "../../src/layers.ts"
import { iamMigrations } from "../../src/migrations.ts"
import { IamServer } from "../../src/server.ts"

export interface RunningIam {
  readonly url: string
  readonly settings: IamSettings
}

/** The IAM service, started over real HTTP on a free port for one test file. */
export class IamUnderTest extends Context.Tag("test/IamUnderTest")<IamUnderTest, RunningIam>() {}

export const iamTestSettings = (port: number, overrides: Partial<IamSettings> = {}): IamSettings => ({
  ...serviceTestSettings(port),
  accountsUrl: "http://127.0.0.1:1",
  accountsToken: Option.none(),
  secretKey: encryptionKeyFromBytes(new Uint8Array(32).fill(7)),
  phoneVerification: Option.none(),
  ...overrides
})

/** One IAM server over the given database layer and accounts; the stores, database, accounts and settings stay visible to the test. */
export const iamServerWith = <E, Accounts>(
  database: Layer.Layer<SqlClient.SqlClient | PgClient.PgClient, E>,
  accounts: Layer.Layer<Accounts>,
  overrides: Partial<IamSettings> = {}
) =>
  serviceUnderTest((port) => {
    const settings = iamTestSettings(port, overrides)
    return IamServer.pipe(
      Layer.provideMerge(testMailbox),
      Layer.provideMerge(Layer.merge(Layer.fresh(IamStoresLive), accounts)),
      Layer.provideMerge(database),
      Layer.provideMerge(IamConfigOf(settings)),
      Layer.merge(Layer.succeed(IamUnderTest, { url: settings.publicUrl, settings }))
    )
  })

/** The same with accounts in memory by default (`FakeAccounts` adds and changes its accounts). */
export const iamServerOn = <E>(
  database: Layer.Layer<SqlClient.SqlClient | PgClient.PgClient, E>,
  overrides: Partial<IamSettings> = {},
  accounts: Layer.Layer<AccountsDirectory | FakeAccounts> = AccountsDirectory.Test
) => iamServerWith(database, accounts, overrides)

/** IAM on its own fresh database, with accounts in memory. Use with `layer(IamTest(), { excludeTestServices: true })`. */
export const IamTest = (overrides: Partial<IamSettings> = {}) => iamServerOn(TestDatabase.layer(iamMigrations), overrides)

/** The IAM API as a typed client of the server under test, sending `headers` with every request. */
export const iamClient = (headers: Readonly<Record<string, string>> = {}) => typedClient(IamApi, { headers })
