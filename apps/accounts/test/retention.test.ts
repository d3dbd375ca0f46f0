import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer, TestClock } from "effect"
import { FlowsRepo } from "../src/flows/FlowsRepo.ts"
import { SignupSessions } from "../src/flows/SignupSessions.ts"
import { AuthorizationCodes } from "../src/oauth/AuthorizationCodes.ts"
import { retentionRules } from "../src/retention.ts"
import { TelemetryRepo } from "../src/telemetry/TelemetryRepo.ts"
import { AccountReposTest, NOW, reserveHandle } from "./support/accountsRepo.ts"
import { createCarbon } from "./support/carbons.ts"

const DAY = 86_400_000
const at = (offset: number) => new Date(NOW + offset)

/** Rows of `table` still there, by the name given at insertion (`id` column). */
const remaining = (
  table: "flows" | "signup_sessions" | "authorization_codes" | "account_id_reservations" | "telemetry_events",
  key: string
) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ readonly key: string }>`SELECT ${sql(key)} AS key FROM ${sql(table)} ORDER BY 1`.pipe(
      Effect.orDie,
      Effect.map((rows) => rows.map((row) => row.key))
    ))

/** Runs `rule` with the clock at NOW: whatever ended more than the rule's time before NOW goes. */
const sweepAtNow = <A, R>(rule: Effect.Effect<A, never, R>) => Effect.zipRight(TestClock.setTime(NOW), rule)

const testLayer = Layer.mergeAll(FlowsRepo.Default, SignupSessions.Default, AuthorizationCodes.Default, TelemetryRepo.Default).pipe(
  Layer.provideMerge(AccountReposTest())
)

layer(testLayer)("retention (spec 1, Retention), rule by rule at its boundary", (it) => {
  it.effect("flows go 1 day after expiry", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      for (const [id, expiresAt] of [["flow_gone", at(-DAY - 1)], ["flow_kept", at(-DAY + 1)], ["flow_live", at(DAY)]] as const) {
        yield* sql`
          INSERT INTO flows (id, cookie_hash, app_id, step, state, version, created_at, expires_at, updated_at)
          VALUES (${id}, ${id}, 'accounts', 'identify', '{}'::jsonb, 1, ${at(-2 * DAY)}, ${expiresAt}, ${at(-2 * DAY)})
        `.pipe(Effect.orDie)
      }
      expect(yield* sweepAtNow(retentionRules.flows)).toBe(1)
      expect(yield* remaining("flows", "id")).toEqual(["flow_kept", "flow_live"])
    }))

  it.effect("sign-up sessions go 7 days after expiry or use", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const rows = [
        ["sup_expired_long_ago", at(-7 * DAY - 1), null],
        ["sup_used_long_ago", at(DAY), at(-7 * DAY - 1)],
        ["sup_expired_lately", at(-7 * DAY + 1), null],
        ["sup_used_lately", at(DAY), at(-7 * DAY + 1)]
      ] as const
      for (const [id, expiresAt, completedAt] of rows) {
        yield* sql`
          INSERT INTO signup_sessions (id, cookie_hash, flow_id, channel, address, created_at, expires_at, completed_at)
          VALUES (${id}, ${id}, 'flow', 'email', 'ada@example.com', ${at(-8 * DAY)}, ${expiresAt}, ${completedAt})
        `.pipe(Effect.orDie)
      }
      expect(yield* sweepAtNow(retentionRules.signup_sessions)).toBe(2)
      expect(yield* remaining("signup_sessions", "id")).toEqual(["sup_expired_lately", "sup_used_lately"])
    }))

  it.effect("authorization codes go 7 days after expiry", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const carbon = yield* createCarbon()
      for (const [hash, expiresAt] of [["code_gone", at(-7 * DAY - 1)], ["code_kept", at(-7 * DAY + 1)]] as const) {
        yield* sql`
          INSERT INTO authorization_codes (code_hash, app_id, account_uuid, redirect_uri, scope, auth_time, created_at, expires_at)
          VALUES (${hash}, 'accounts', ${carbon.uuid}, 'https://app.example.com/cb', 'openid', ${at(-8 * DAY)},
                  ${at(-8 * DAY)}, ${expiresAt})
        `.pipe(Effect.orDie)
      }
      expect(yield* sweepAtNow(retentionRules.authorization_codes)).toBe(1)
      expect(yield* remaining("authorization_codes", "code_hash")).toEqual(["code_kept"])
    }))

  it.effect("id reservations go 1 day after they end; a live one stays", () =>
    Effect.gen(function*() {
      const carbon = yield* createCarbon()
      yield* reserveHandle("ended_long_ago", carbon.uuid, at(-DAY - 1))
      yield* reserveHandle("ended_lately", carbon.uuid, at(-DAY + 1))
      yield* reserveHandle("still_reserved", carbon.uuid, at(9 * DAY))
      expect(yield* sweepAtNow(retentionRules.id_reservations)).toBe(1)
      expect(yield* remaining("account_id_reservations", "handle")).toEqual(["ended_lately", "still_reserved"])
    }))

  it.effect("telemetry events go 90 days after they arrived", () =>
    Effect.gen(function*() {
      const telemetry = yield* TelemetryRepo
      yield* telemetry.insert([{ name: "old" }], at(-90 * DAY - 1))
      yield* telemetry.insert([{ name: "recent" }], at(-90 * DAY + 1))
      expect(yield* sweepAtNow(retentionRules.telemetry_events)).toBe(1)
      expect(yield* remaining("telemetry_events", "name")).toEqual(["recent"])
    }))
})
