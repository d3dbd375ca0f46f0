import { FetchHttpClient } from "@effect/platform"
import { AccountsApps, AccountsDirectory } from "@platform/accounts-identity-api"
import { AccessTokenVerifier } from "@platform/auth"
import { Database } from "@platform/database"
import { IdempotencyStore } from "@platform/idempotency"
import { RateLimiter } from "@platform/rate-limit"
import { Effect, Layer, Option, Redacted } from "effect"
import { DEVELOPER_AUDIENCE } from "./auth/Authenticator.ts"
import { RegistryConfig } from "./config.ts"
import { registryMigrations } from "./migrations.ts"
import { RegistryRetentionLive } from "./retention.ts"

/** The database named by REGISTRY_DATABASE_URL, or the embedded one under REGISTRY_DATA_DIR (default data/registry). */
export const RegistryDatabaseLive = Database.layerConfig({ prefix: "REGISTRY_", service: "registry", migrations: registryMigrations })

/** The stores every area shares, over whichever database is provided. */
export const RegistryStoresLive = Layer.mergeAll(RateLimiter.layer, IdempotencyStore.layer)

/**
 * Accounts as the registry sees it: identities and the app sync over its internal routes (REGISTRY_ACCOUNTS_URL with
 * REGISTRY_ACCOUNTS_INTERNAL_TOKEN; without the token accounts refuses every call, answered as 503
 * accounts_unavailable) and its access tokens verified against its JWKS (keys cached 10 minutes, spec 1).
 */
export const RegistryAccountsLive = Layer.unwrapEffect(
  Effect.map(RegistryConfig, (config) =>
    Layer.mergeAll(
      AccountsDirectory.layer({
        baseUrl: config.accountsUrl,
        token: Option.getOrElse(config.accountsToken, () => Redacted.make(""))
      }),
      AccountsApps.layer({
        baseUrl: config.accountsUrl,
        token: Option.getOrElse(config.accountsToken, () => Redacted.make(""))
      }),
      AccessTokenVerifier.layer({
        issuer: config.accountsIssuer,
        jwksUrl: `${config.accountsUrl}/.well-known/jwks.json`,
        audience: [config.audience, DEVELOPER_AUDIENCE]
      })
    ))
).pipe(Layer.provide(FetchHttpClient.layer))

/** Background work of a running server: the retention sweeps. */
export const RegistryWorkersLive = RegistryRetentionLive
