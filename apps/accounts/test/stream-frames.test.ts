import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { TestDatabase } from "@platform/database"
import { Effect, Fiber, Layer, Option, Ref, TestClock } from "effect"
import { sha256Hex } from "@platform/crypto"
import { AccountsConfigOf } from "../src/config.ts"
import { accountsMigrations } from "../src/migrations.ts"
import { FIRST_PARTY_CLIENT_ID } from "../src/oauth/AccessTokens.ts"
import { SigninsRepo } from "../src/oauth/SigninsRepo.ts"
import { CallerCheck } from "../src/stream/CallerCheck.ts"
import { EventStreams } from "../src/stream/EventStreams.ts"
import type { ClosedReason } from "../src/stream/frames.ts"
import { atNow } from "./support/accountsRepo.ts"
import { testSettings } from "./support/AccountsUnderTest.ts"
import { createApp } from "./support/apps.ts"
import { createCarbon } from "./support/carbons.ts"
import { insertFeedEvent, untilSettled } from "./support/eventFeed.ts"

/** Real time, for waiting on the database while the test clock stands still. */
const realPause = Effect.promise(() => new Promise((resolve) => setImmediate(resolve)))

/** Until the stream waits for its next look with the ticker asleep (it has done everything up to it), or has ended. */
const parked = (fiber: Fiber.RuntimeFiber<void>) =>
  Effect.gen(function*() {
    const streams = yield* EventStreams
    while (
      ((yield* TestClock.sleeps()).length === 0 || !(yield* streams.allWaiting)) && Option.isNone(yield* Fiber.poll(fiber))
    ) yield* realPause
  })

/**
 * Opens a stream for `receiver` and collects its frames as they are sent. `steps(count, seconds)` moves
 * the clock, each step once the stream waits for it, and returns once the stream has done its last look.
 */
const collect = (
  receiver: string,
  recheck: Effect.Effect<Option.Option<ClosedReason>> = Effect.succeedNone,
  types?: ReadonlyArray<string>
) =>
  Effect.gen(function*() {
    const streams = yield* EventStreams
    const opened = yield* streams.open({ receiver, types, from: undefined, recheck })
    const frames: Array<string> = []
    const fiber = yield* opened.start((frame) => Effect.sync(() => frames.push(frame)))
    yield* parked(fiber)
    const steps = (count: number, seconds: number) =>
      Effect.zipRight(
        Effect.forEach(Array.from({ length: count }), () => Effect.zipRight(parked(fiber), TestClock.adjust(`${seconds} seconds`)), {
          discard: true
        }),
        parked(fiber)
      )
    /** One second at a time: every look of the stream happens. */
    const seconds = (count: number) => steps(count, 1)
    return { frames, fiber, steps, seconds }
  })

const leaseOf = (receiver: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ readonly lease_until: Date }>`SELECT lease_until FROM event_streams WHERE receiver = ${receiver}`.pipe(
      Effect.orDie,
      Effect.map((rows) => rows.map((row) => new Date(row.lease_until).getTime()))
    ))

const StreamsTest = Layer.mergeAll(EventStreams.Default, CallerCheck.Default, SigninsRepo.Default).pipe(
  Layer.provideMerge(TestDatabase.layer(accountsMigrations)),
  Layer.provide(AccountsConfigOf(testSettings(0)))
)

layer(StreamsTest)("the stream's rhythm, on the test clock", (it) => {
  it.effect("a heartbeat comment after 15 seconds without a frame, not before; an event starts the 15 seconds again", () =>
    Effect.gen(function*() {
      yield* atNow
      const carbon = yield* createCarbon()
      const receiver = `account:${carbon.uuid}`
      const { fiber, frames, seconds } = yield* collect(receiver)
      expect(frames).toEqual([expect.stringMatching(/^retry: 5000\nid: \d+\.0\n\n$/)])
      yield* seconds(14)
      expect(frames).toHaveLength(1)
      yield* seconds(1)
      expect(frames.slice(1)).toEqual([": heartbeat\n\n"])
      yield* seconds(5)
      yield* insertFeedEvent({ receiver, accountUuid: carbon.uuid })
      yield* untilSettled
      yield* seconds(1)
      expect(frames[2]).toMatch(/^id: \d+\.\d+\nevent: ping\ndata: \{.*\}\n\n$/)
      yield* seconds(14)
      expect(frames).toHaveLength(3)
      yield* seconds(1)
      expect(frames.slice(3)).toEqual([": heartbeat\n\n"])
      // The next test sets the clock back: no stream may keep the process's ticker waiting for a later time.
      yield* Fiber.interrupt(fiber)
    }))

  it.effect("streams that look at the same tick read together, each its own receiver's events of its own types", () =>
    Effect.gen(function*() {
      yield* atNow
      const [ada, bob] = [yield* createCarbon(), yield* createCarbon()]
      const adaAll = yield* collect(`account:${ada.uuid}`)
      const adaDeleted = yield* collect(`account:${ada.uuid}`, Effect.succeedNone, ["account.deleted"])
      const bobAll = yield* collect(`account:${bob.uuid}`)
      const sent = {
        adaPing: yield* insertFeedEvent({ receiver: `account:${ada.uuid}`, accountUuid: ada.uuid }),
        bobPing: yield* insertFeedEvent({ receiver: `account:${bob.uuid}`, accountUuid: bob.uuid }),
        adaDeleted: yield* insertFeedEvent({ receiver: `account:${ada.uuid}`, accountUuid: ada.uuid, type: "account.deleted" })
      }
      yield* untilSettled
      yield* adaAll.seconds(1)
      yield* Effect.forEach([adaDeleted, bobAll], (stream) => parked(stream.fiber))
      const dataOf = (frames: ReadonlyArray<string>) =>
        frames.slice(1).map((frame) => JSON.parse(frame.split("\ndata: ")[1]!))
      expect(dataOf(adaAll.frames)).toEqual([sent.adaPing, sent.adaDeleted])
      expect(dataOf(adaDeleted.frames)).toEqual([sent.adaDeleted])
      expect(dataOf(bobAll.frames)).toEqual([sent.bobPing])
      yield* Effect.forEach([adaAll, adaDeleted, bobAll], (stream) => Fiber.interrupt(stream.fiber))
    }))

  it.effect("after an hour: stream.closed with reason max_duration, and the end", () =>
    Effect.gen(function*() {
      yield* atNow
      const carbon = yield* createCarbon()
      const { fiber, frames, seconds, steps } = yield* collect(`account:${carbon.uuid}`)
      // The first 3540 seconds a minute at a time (a look each), the last minute second by second.
      yield* steps(59, 60)
      yield* seconds(59)
      expect(frames.some((frame) => frame.includes("stream.closed"))).toBe(false)
      yield* seconds(1)
      yield* Fiber.join(fiber)
      expect(frames.at(-1)).toMatch(/^id: \d+\.0\nevent: stream\.closed\ndata: \{"reason":"max_duration"\}\n\n$/)
      // Nothing but heartbeats in between.
      expect(new Set(frames.slice(1, -1))).toEqual(new Set([": heartbeat\n\n"]))
      expect(yield* leaseOf(`account:${carbon.uuid}`)).toEqual([])
    }), { timeout: 60_000 })

  it.effect("credentials rechecked every 30 seconds (renewing the lease): a refusal ends the stream with its code", () =>
    Effect.gen(function*() {
      yield* atNow
      const carbon = yield* createCarbon()
      const receiver = `account:${carbon.uuid}`
      const refusal = yield* Ref.make(Option.none<ClosedReason>())
      const checks = yield* Ref.make(0)
      const recheck = Effect.zipRight(Ref.update(checks, (n) => n + 1), Ref.get(refusal))
      const { fiber, frames, seconds } = yield* collect(receiver, recheck)
      const [firstLease] = yield* leaseOf(receiver)
      yield* seconds(29)
      expect(yield* Ref.get(checks)).toBe(0)
      yield* seconds(1)
      expect(yield* Ref.get(checks)).toBe(1)
      expect(yield* leaseOf(receiver)).toEqual([firstLease! + 30_000])
      yield* Ref.set(refusal, Option.some({ reason: "credentials_revoked", code: "token_revoked" }))
      yield* seconds(30)
      yield* Fiber.join(fiber)
      expect(frames.at(-1)).toMatch(
        /^id: \d+\.0\nevent: stream\.closed\ndata: \{"reason":"credentials_revoked","code":"token_revoked"\}\n\n$/
      )
      expect(yield* leaseOf(receiver)).toEqual([])
    }))
})

layer(StreamsTest)("CallerCheck: what ends a running stream", (it) => {
  describe("an app", () => {
    it.effect("good while it exists, is not disabled and keeps the secret the stream opened with", () =>
      Effect.gen(function*() {
        const check = yield* CallerCheck
        const sql = yield* SqlClient.SqlClient
        const app = yield* createApp()
        const caller = { kind: "app" as const, appId: app.appId, secretDigest: sha256Hex(app.secret) }
        expect(yield* check.stillGood(caller)).toBeUndefined()
        yield* sql`UPDATE apps SET status = 'disabled' WHERE app_id = ${app.appId}`.pipe(Effect.orDie)
        expect(yield* check.stillGood(caller)).toBe("app_disabled")
        yield* sql`UPDATE apps SET status = 'active', secret_hash = ${sha256Hex("sas_rotated")} WHERE app_id = ${app.appId}`
          .pipe(Effect.orDie)
        expect(yield* check.stillGood(caller)).toBe("invalid_app_credentials")
        expect(yield* check.stillGood({ ...caller, appId: "no-such-app" })).toBe("invalid_app_credentials")
      }))
  })

  describe("an account", () => {
    it.effect("good while its sign-in is neither revoked nor over and the account is not deleted", () =>
      Effect.gen(function*() {
        yield* atNow
        const check = yield* CallerCheck
        const signins = yield* SigninsRepo
        const sql = yield* SqlClient.SqlClient
        const carbon = yield* createCarbon()
        const start = () =>
          Effect.map(
            signins.start({ accountUuid: carbon.uuid, clientId: FIRST_PARTY_CLIENT_ID, clientLabel: null, method: "cli_code", now: new Date() }),
            ({ signin }) => ({ kind: "account" as const, uuid: carbon.uuid, signinId: signin.id })
          )
        const revoked = yield* start()
        expect(yield* check.stillGood(revoked)).toBeUndefined()
        yield* signins.revokeSignin(revoked.signinId, new Date(), "test")
        expect(yield* check.stillGood(revoked)).toBe("token_revoked")
        expect(yield* check.stillGood({ ...revoked, signinId: "sgn_unknown" })).toBe("token_revoked")
        const expired = yield* start()
        yield* sql`UPDATE signins SET expires_at = ${new Date(0)} WHERE id = ${expired.signinId}`.pipe(Effect.orDie)
        expect(yield* check.stillGood(expired)).toBe("session_expired")
        const live = yield* start()
        yield* sql`UPDATE accounts SET status = 'deleted' WHERE uuid = ${carbon.uuid}`.pipe(Effect.orDie)
        expect(yield* check.stillGood(live)).toBe("account_deleted")
      }))
  })
})
