import { Database, DatabaseConfig } from "@platform/database"
import { IdempotencyStore } from "@platform/idempotency"
import { MessageDelivery, MessageOutbox, transportFromConfig } from "@platform/mail"
import { RateLimiter } from "@platform/rate-limit"
import { SigningKeys } from "@platform/signing-keys"
import { Duration, Effect, Layer } from "effect"
import { AccountsConfig } from "./config.ts"
import { DeviceCodesRepo } from "./device/DeviceCodesRepo.ts"
import { DeviceCodesSweeperLive } from "./device/DeviceCodesSweeper.ts"
import { AuthorizationCodes } from "./oauth/AuthorizationCodes.ts"
import { FlowsRepo } from "./flows/FlowsRepo.ts"
import { SignupSessions } from "./flows/SignupSessions.ts"
import { accountsMigrations } from "./migrations.ts"
import { now, periodicSweep } from "@platform/service"
import { CustodianRequestsSweeperLive, LoginStreaksSweeperLive } from "./silicons/SiliconSweepers.ts"
import { sweepAssertionJtis } from "./silicons/assertions/assertionJtis.ts"
import { VerificationSweeperLive } from "@platform/verification-codes"
import { VerificationCodesLive } from "./verification/VerificationCodesLive.ts"

/** The database named by ACCOUNTS_DATABASE_URL, or the embedded one under ACCOUNTS_DATA_DIR. */
export const AccountsDatabaseLive = Database.layerConfig({
  prefix: "ACCOUNTS_",
  service: "accounts",
  migrations: accountsMigrations
})

/** Signing keys, encrypted at rest when ACCOUNTS_KEY_ENCRYPTION_KEY is set. */
export const SigningKeysLive = Layer.unwrapEffect(
  Effect.map(AccountsConfig, (config) => SigningKeys.layer({
    encryptionKey: config.keyEncryptionKey,
    refreshSeconds: config.keysRefreshSeconds
  }))
)

/** The stores every area shares, over whichever database is provided. */
export const AccountsStoresLive = VerificationCodesLive.pipe(
  Layer.provideMerge(Layer.mergeAll(SigningKeysLive, RateLimiter.layer, IdempotencyStore.layer, MessageOutbox.layer))
)

/**
 * Background work of a running server: delivering queued mail and SMS through SMTP or, in development,
 * the mailbox file in the data directory; the retention sweeps (verification and device codes,
 * rate-limit windows older than a day, expired idempotency results, expired assertion jtis, idle
 * wrong-STK streaks); and the expiry of custodian requests past their 14 days.
 */
export const AccountsWorkersLive = Layer.mergeAll(
  MessageDelivery.layer().pipe(
    Layer.provide(
      Layer.unwrapEffect(
        Effect.map(
          DatabaseConfig({ prefix: "ACCOUNTS_", service: "accounts" }),
          (database) => transportFromConfig("ACCOUNTS_", database.dataDir)
        )
      )
    )
  ),
  VerificationSweeperLive,
  DeviceCodesSweeperLive.pipe(Layer.provide(DeviceCodesRepo.Default)),
  periodicSweep("rate_limit_windows", Effect.flatMap(RateLimiter, (limiter) => limiter.sweep)),
  periodicSweep("idempotency_results", Effect.flatMap(IdempotencyStore, (store) => store.purgeExpired)),
  periodicSweep("silicon_assertion_jtis", sweepAssertionJtis),
  periodicSweep(
    "authorization_codes",
    Effect.gen(function*() {
      const codes = yield* AuthorizationCodes
      const at = yield* now
      // Kept 7 days after expiry (spec 1, Retention): a late reuse still finds the code and revokes what it issued.
      return yield* codes.sweep(new Date(at.getTime() - Duration.toMillis(Duration.days(7))))
    })
  ).pipe(Layer.provide(AuthorizationCodes.Default)),
  periodicSweep(
    "flows",
    Effect.gen(function*() {
      const flows = yield* FlowsRepo
      const signups = yield* SignupSessions
      const at = yield* now
      const day = Duration.toMillis(Duration.days(1))
      // Flows 1 day after expiry; sign-up sessions 7 days after expiry or use (spec 1, Retention).
      return (yield* flows.sweep(new Date(at.getTime() - day))) + (yield* signups.sweep(new Date(at.getTime() - 7 * day)))
    })
  ).pipe(Layer.provide(Layer.mergeAll(FlowsRepo.Default, SignupSessions.Default))),
  CustodianRequestsSweeperLive,
  LoginStreaksSweeperLive
)
