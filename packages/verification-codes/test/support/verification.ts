import { SqlClient } from "@effect/sql"
import { TestDatabase } from "@platform/database"
import { InMemoryTransport, MessageDelivery, MessageOutbox, MessageOutboxMigration } from "@platform/mail"
import { RateLimiter, RateLimitMigration } from "@platform/rate-limit"
import { SweepLeasesMigration } from "@platform/service"
import { Duration, Effect, Layer } from "effect"
import { standardCodeRules, type VerificationCodesPolicy } from "../../src/policy.ts"
import type { SendCodeInput } from "../../src/VerificationChallenge.ts"
import { VerificationCodes } from "../../src/VerificationCodes.ts"
import { VerificationMigration } from "../../src/VerificationMigration.ts"

/** The numbers of spec 1, which the tests' assertions spell out. */
export const testPolicy: VerificationCodesPolicy = {
  ...standardCodeRules,
  resendSuggestedAfter: Duration.seconds(30),
  retentionAfterExpiry: Duration.days(1),
  codesPerAddress: {
    id: "verification_codes_address",
    operation: "sending verification codes to one email or phone",
    limit: 10,
    window: "10 minutes",
    per: "address"
  },
  codesPerClientAddress: {
    id: "verification_codes_ip",
    operation: "sending verification codes from one network",
    limit: 30,
    window: "10 minutes",
    per: "IP"
  },
  challengeIdPrefix: "vch_"
}

/** Only what verification codes need: rate windows, the message outbox and its own tables. */
export const verificationMigrations = {
  "0001_rate_limits": RateLimitMigration,
  "0002_outgoing_messages": MessageOutboxMigration,
  "0003_verification_codes": VerificationMigration,
  "0004_sweep_leases": SweepLeasesMigration
}

/** The stores VerificationCodes needs, over a database layer (the SqlClient stays visible to the test). */
export const verificationOn = <E>(
  database: Layer.Layer<SqlClient.SqlClient, E>,
  policy: VerificationCodesPolicy = testPolicy
) =>
  Layer.mergeAll(VerificationCodes.layer(policy), MessageDelivery.layerWithoutWorker()).pipe(
    Layer.provideMerge(Layer.mergeAll(RateLimiter.layer, MessageOutbox.layer, InMemoryTransport.layer)),
    Layer.provideMerge(database)
  )

/** VerificationCodes over a fresh database, with messages delivered to memory on demand. */
export const verificationOverFreshDatabase = (policy: VerificationCodesPolicy = testPolicy) =>
  verificationOn(TestDatabase.layer(verificationMigrations), policy)

export const signInCode = (overrides: Partial<SendCodeInput> = {}): SendCodeInput => ({
  channel: "email",
  destination: "jane@example.com",
  purpose: "cli_login",
  clientAddress: "198.51.100.7",
  message: (code) => ({ subject: "Your sign-in code", text: `Your code is ${code}. It is valid for 10 minutes.` }),
  ...overrides
})

/** Delivers what the outbox holds and returns every message sent so far, oldest first. */
export const deliveredMessages = Effect.gen(function*() {
  const delivery = yield* MessageDelivery
  yield* Effect.orDie(delivery.deliverDue)
  return yield* InMemoryTransport.sent
})

/** The code of the latest message delivered to `to`. */
export const latestCodeTo = (to: string) =>
  Effect.flatMap(deliveredMessages, (messages) => {
    const code = messages.filter((message) => message.to === to).at(-1)?.code
    return code === undefined || code === null ? Effect.dieMessage(`no code was delivered to ${to}`) : Effect.succeed(code)
  })

/** A six-digit code that is not `code`. */
export const wrongCodeFor = (code: string): string => code === "000000" ? "000001" : "000000"

export const challengeRows = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) => sql<{ readonly count: number }>`SELECT count(*)::float8 AS count FROM verification_challenges`
).pipe(Effect.map((rows) => rows[0]?.count ?? 0), Effect.orDie)

/**
 * Two server processes on one fresh database, each with its own pool, migration run and
 * services; a message is delivered by the process that sent it.
 */
export const twoProcessesOnOneDatabase = Effect.gen(function*() {
  const openAsProcess = yield* TestDatabase.sharedByProcesses(verificationMigrations)
  const startProcess = Layer.build(verificationOn(openAsProcess))
  return [yield* startProcess, yield* startProcess] as const
}).pipe(Effect.orDie)
