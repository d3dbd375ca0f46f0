import type { SqlClient } from "@effect/sql"
import type { PgClient } from "@effect/sql-pg"
import { FetchHttpClient } from "@effect/platform"
import { AccountsApps, AccountsDirectory, type CarbonIdentity, FakeAccounts, type SiliconIdentity } from "@platform/accounts-identity-api"
import { AccessTokenVerifier } from "@platform/auth"
import { TestDatabase } from "@platform/database"
import { serviceTestSettings, serviceUnderTest, typedClient } from "@platform/testkit"
import { Context, Effect, Layer, Option } from "effect"
import { randomUUID } from "node:crypto"
import { RegistryApi } from "../../src/api.ts"
import { DEVELOPER_AUDIENCE } from "../../src/auth/Authenticator.ts"
import { RegistryConfigOf, type RegistrySettings } from "../../src/config.ts"
import { RegistryStoresLive } from "../../src/layers.ts"
import { registryMigrations } from "../../src/migrations.ts"
import { RegistryServer } from "../../src/server.ts"
import { TEST_ISSUER, TestIssuer, TestIssuerLive } from "./issuer.ts"

export interface RunningRegistry {
  readonly url: string
  readonly settings: RegistrySettings
}

/** The registry, started over real HTTP on a free port for one test file. */
export class RegistryUnderTest extends Context.Tag("test/RegistryUnderTest")<RegistryUnderTest, RunningRegistry>() {}

export const registryTestSettings = (port: number, overrides: Partial<RegistrySettings> = {}): RegistrySettings => ({
  ...serviceTestSettings(port),
  accountsUrl: "http://127.0.0.1:1",
  accountsIssuer: TEST_ISSUER,
  accountsToken: Option.none(),
  audience: "registry",
  developmentBearer: false,
  rateLimits: { readsPerMinute: 600, writesPerMinute: 120 },
  sandbox: { mode: "auto", commandSeconds: 10 },
  ...overrides
})

/** Accounts' tokens as the registry checks them: the test issuer's keys over HTTP. */
const verifierOf = (settings: RegistrySettings) =>
  Layer.unwrapEffect(Effect.map(TestIssuer, (issuer) =>
    AccessTokenVerifier.layer({
      issuer: settings.accountsIssuer,
      jwksUrl: issuer.jwksUrl,
      audience: [settings.audience, DEVELOPER_AUDIENCE]
    }))).pipe(Layer.provide(FetchHttpClient.layer))

/** One registry over the given database with `accounts` (its identities and app sync) and the test issuer's tokens. */
export const registryServerWith = <E, A, EA>(
  database: Layer.Layer<SqlClient.SqlClient | PgClient.PgClient, E>,
  accounts: Layer.Layer<A, EA>,
  overrides: Partial<RegistrySettings> = {}
) =>
  serviceUnderTest((port) => {
    const settings = registryTestSettings(port, overrides)
    return RegistryServer.pipe(
      Layer.provideMerge(Layer.mergeAll(Layer.fresh(RegistryStoresLive), accounts, verifierOf(settings))),
      Layer.provideMerge(TestIssuerLive),
      Layer.provideMerge(database),
      Layer.provideMerge(RegistryConfigOf(settings)),
      Layer.merge(Layer.succeed(RegistryUnderTest, { url: settings.publicUrl, settings }))
    )
  })

/** One registry over the given database, with accounts in memory (`FakeAccounts`, `FakeAccountsApps`) and the test issuer's tokens. */
export const registryServerOn = <E>(
  database: Layer.Layer<SqlClient.SqlClient | PgClient.PgClient, E>,
  overrides: Partial<RegistrySettings> = {}
) => registryServerWith(database, AccountsApps.Test.pipe(Layer.provideMerge(AccountsDirectory.Test)), overrides)

/** The registry on its own fresh database. Use with `layer(RegistryTest(), { excludeTestServices: true })`. */
export const RegistryTest = (overrides: Partial<RegistrySettings> = {}) =>
  registryServerOn(TestDatabase.layer(registryMigrations), overrides)

/** The registry API as a typed client of the server under test, sending `headers` with every request. */
export const registryClient = (headers: Readonly<Record<string, string>> = {}) => typedClient(RegistryApi, { headers })

/** A new active Carbon at accounts (in memory) with a verified email. */
export const newCarbon = (name = "Ada"): CarbonIdentity => {
  const uuid = randomUUID()
  const handle = `${name.toLowerCase().replace(/[^a-z0-9]/g, "")}${uuid.slice(0, 8)}`
  return {
    uuid,
    id: `c:${handle}`,
    kind: "carbon",
    display_name: name,
    status: "active",
    verified_emails: [`${handle}@example.com`],
    verified_phones: []
  }
}

/** A new active Silicon at accounts (in memory). */
export const newSilicon = (name = "Scout"): SiliconIdentity => {
  const uuid = randomUUID()
  return { uuid, id: `si:${name.toLowerCase()}${uuid.slice(0, 8)}`, kind: "silicon", display_name: name, status: "active" }
}

/** Puts the account at accounts and returns a registry account token for it (`aud` to change the audience). */
export const signedIn = (identity: CarbonIdentity | SiliconIdentity, aud?: string) =>
  Effect.gen(function*() {
    yield* Effect.flatMap(FakeAccounts, (accounts) => accounts.put(identity))
    const issuer = yield* TestIssuer
    const token = yield* Effect.promise(() => issuer.token({ sub: identity.uuid, ...(aud === undefined ? {} : { aud }) }))
    return { identity, token, headers: { authorization: `Bearer ${token}` } }
  })
