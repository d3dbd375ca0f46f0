import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { TestDatabase } from "@platform/database"
import { makeFailureStreaks } from "@platform/rate-limit"
import { now } from "@platform/service"
import { Duration, Effect, Layer, TestClock } from "effect"
import { CodeChallengesRepo } from "../src/challenges/CodeChallengesRepo.ts"
import { SignupSessionsRepo } from "../src/login/SignupSessionsRepo.ts"
import { iamMigrations } from "../src/migrations.ts"
import { DevelopmentPhoneCodes } from "../src/phone-verification/DevelopmentPhoneCodes.ts"
import { RetentionStoresLive, sweepExpired } from "../src/retention.ts"
import { SILICON_TOKEN_STREAKS } from "../src/silicon-auth/tokenStreaks.ts"
import { StepUpTokensRepo } from "../src/step-up/StepUpTokensRepo.ts"

const RetentionTest = RetentionStoresLive.pipe(Layer.provideMerge(TestDatabase.layer(iamMigrations)))

const TABLES = ["code_challenges", "signup_sessions", "step_up_tokens", "development_phone_codes"] as const

const rowsLeft = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.forEach(TABLES, (table) =>
    sql<{ readonly count: number }>`select count(*)::float8 as count from ${sql(table)}`.pipe(
      Effect.map((rows) => rows[0]?.count ?? -1)
    ))).pipe(Effect.orDie)

/** One of each, ending `lifetime` from now. */
const oneOfEach = (name: string, lifetime: Duration.Duration) =>
  Effect.gen(function*() {
    const at = yield* now
    const expiresAt = new Date(at.getTime() + Duration.toMillis(lifetime))
    yield* Effect.flatMap(CodeChallengesRepo, (repo) =>
      repo.replace({
        id: `chs_${name}`,
        purpose: "login",
        subject: `login:${name}`,
        identityUuid: null,
        email: `${name}@example.com`,
        emailCodeDigest: "digest",
        phone: null,
        details: {},
        at,
        expiresAt
      }))
    yield* Effect.flatMap(SignupSessionsRepo, (repo) =>
      repo.insert({ digest: name, channel: "email", destination: `${name}@example.com`, challengeId: `chs_${name}`, at, expiresAt }))
    yield* Effect.flatMap(StepUpTokensRepo, (repo) =>
      repo.insert({
        digest: name,
        identityUuid: name,
        action: "account.session_revoke",
        resourceId: name,
        applicationId: null,
        challengeId: `chs_${name}`,
        at,
        expiresAt
      }))
    yield* Effect.flatMap(DevelopmentPhoneCodes, (repo) => repo.put(`+1${name}`, "digest", expiresAt))
  })

layer(RetentionTest)("iam retention", (it) => {
  it.effect("challenges, signup sessions, step-up tokens and development phone codes go a day after they expire", () =>
    Effect.gen(function*() {
      yield* oneOfEach("short", Duration.minutes(10))
      yield* oneOfEach("long", Duration.hours(48))
      yield* TestClock.adjust(Duration.sum(Duration.minutes(10), Duration.days(1)))
      yield* sweepExpired
      expect(yield* rowsLeft).toEqual([2, 2, 2, 2])
      yield* TestClock.adjust(Duration.millis(1))
      yield* sweepExpired
      expect(yield* rowsLeft).toEqual([1, 1, 1, 1])
    }))

  it.effect("a Silicon's wrong-token streak goes a day after its last attempt", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* makeFailureStreaks(sql, SILICON_TOKEN_STREAKS).record("idle-silicon", false, yield* now)
      const streaks = sql<{ readonly count: number }>`select count(*)::float8 as count from silicon_token_streaks`.pipe(
        Effect.map((rows) => rows[0]?.count),
        Effect.orDie
      )
      yield* TestClock.adjust(Duration.days(1))
      yield* sweepExpired
      expect(yield* streaks).toBe(1)
      yield* TestClock.adjust(Duration.millis(1))
      yield* sweepExpired
      expect(yield* streaks).toBe(0)
    }))
})
