import { describe, expect, it, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Clock, Effect, Layer, Option, TestClock } from "effect"
import { DeviceCodesRepo } from "../src/device/DeviceCodesRepo.ts"
import { DeviceCodesSweeperLive } from "../src/device/DeviceCodesSweeper.ts"
import { displayUserCode, normalizeUserCode, randomUserCode } from "../src/device/userCode.ts"
import { AccountReposTest, atNow } from "./support/accountsRepo.ts"
import { createCarbon } from "./support/carbons.ts"

const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))
const after = (seconds: number) => TestClock.adjust(`${seconds} seconds`)

/** A new device code issued now, on the test clock. */
const issue = Effect.gen(function*() {
  const codes = yield* DeviceCodesRepo
  return yield* codes.create({ clientId: "accounts", clientLabel: "laptop", now: yield* now })
})
const pollNow = (deviceCode: string, clientId = "accounts") =>
  Effect.flatMap(DeviceCodesRepo, (codes) => Effect.flatMap(now, (at) => codes.poll(deviceCode, clientId, at)))
const decideNow = (userCode: string, decision: "approved" | "denied", accountUuid: string) =>
  Effect.flatMap(DeviceCodesRepo, (codes) => Effect.flatMap(now, (at) => codes.decide(userCode, decision, accountUuid, at)))

describe("user codes", () => {
  it("are 8 unambiguous letters, shown as XXXX-XXXX", () => {
    for (let i = 0; i < 200; i++) expect(randomUserCode()).toMatch(/^[BCDFGHJKMNPQRSTVWXZ]{8}$/)
    expect(displayUserCode("WDJBMJHT")).toBe("WDJB-MJHT")
  })

  it("are read case-insensitively, ignoring dashes and spaces; anything else is no code", () => {
    for (const typed of ["WDJB-MJHT", "wdjb-mjht", "wdjbmjht", " Wdjb mjht "]) expect(normalizeUserCode(typed)).toBe("WDJBMJHT")
    for (const typed of ["WDJB-MJH", "WDJB-MJHTX", "WDJB-MJH0", "AEIO-UBCD", "LLLL-LLLL", ""]) expect(normalizeUserCode(typed)).toBeNull()
  })
})

layer(Layer.provideMerge(DeviceCodesRepo.Default, AccountReposTest()))("DeviceCodesRepo on the test clock", (it) => {
  it.effect("pending until decided; polls closer than the interval are slow_down and add 5 seconds each", () =>
    Effect.gen(function*() {
      yield* atNow
      const { deviceCode } = yield* issue
      expect((yield* pollNow(deviceCode))._tag).toBe("Pending")
      yield* after(1)
      expect(yield* pollNow(deviceCode)).toMatchObject({ _tag: "SlowDown", intervalSeconds: 10 })
      yield* after(5)
      expect(yield* pollNow(deviceCode)).toMatchObject({ _tag: "SlowDown", intervalSeconds: 15 })
      yield* after(15)
      expect((yield* pollNow(deviceCode))._tag).toBe("Pending")
      // One second of tolerance for jitter: 14 seconds after the last poll is still on time.
      yield* after(14)
      expect((yield* pollNow(deviceCode))._tag).toBe("Pending")
      yield* after(5)
      expect(yield* pollNow(deviceCode)).toMatchObject({ _tag: "SlowDown", intervalSeconds: 20 })
    }))

  it.effect("a code lives 600 seconds: then polls are Expired and the user code names nothing", () =>
    Effect.gen(function*() {
      yield* atNow
      const carbon = yield* createCarbon()
      const codes = yield* DeviceCodesRepo
      const live = yield* issue
      const approvedLate = yield* issue
      yield* after(599)
      expect((yield* pollNow(live.deviceCode))._tag).toBe("Pending")
      yield* decideNow(approvedLate.userCode, "approved", carbon.uuid)
      yield* after(1)
      expect((yield* pollNow(live.deviceCode))._tag).toBe("Expired")
      expect((yield* pollNow(approvedLate.deviceCode))._tag).toBe("Expired")
      expect(Option.map(yield* codes.find(live.userCode), (row) => row.user_code)).toEqual(Option.some(live.userCode))
      expect((yield* decideNow(live.userCode, "approved", carbon.uuid))._tag).toBe("Expired")
      expect((yield* decideNow("BCDFGHJK", "approved", carbon.uuid))._tag).toBe("NotFound")
    }))

  it.effect("an approval is collected once, even by concurrent polls; a denial is Denied", () =>
    Effect.gen(function*() {
      yield* atNow
      const carbon = yield* createCarbon()
      const approved = yield* issue
      expect(yield* decideNow(approved.userCode, "approved", carbon.uuid)).toMatchObject({
        _tag: "Decided",
        row: { status: "approved", account_uuid: carbon.uuid }
      })
      const outcomes = yield* Effect.all([pollNow(approved.deviceCode), pollNow(approved.deviceCode)], {
        concurrency: "unbounded"
      })
      expect(outcomes.map((outcome) => outcome._tag).sort()).toEqual(["Approved", "Used"])
      expect(outcomes.find((outcome) => outcome._tag === "Approved")).toEqual({
        _tag: "Approved",
        accountUuid: carbon.uuid,
        clientLabel: "laptop"
      })
      expect(yield* decideNow(approved.userCode, "denied", carbon.uuid)).toEqual({
        _tag: "AlreadyDecided",
        status: "approved"
      })

      const denied = yield* issue
      yield* decideNow(denied.userCode, "denied", carbon.uuid)
      expect((yield* pollNow(denied.deviceCode))._tag).toBe("Denied")
      expect((yield* pollNow(denied.deviceCode))._tag).toBe("Denied")
    }))

  it.effect("a device code answers only the client it was issued to", () =>
    Effect.gen(function*() {
      yield* atNow
      const { deviceCode } = yield* issue
      expect((yield* pollNow(deviceCode, "developer"))._tag).toBe("Unknown")
      expect((yield* pollNow("sad_never_issued"))._tag).toBe("Unknown")
    }))

  it.effect("the sweep deletes codes 7 days after they expire", () =>
    Effect.gen(function*() {
      yield* atNow
      const codes = yield* DeviceCodesRepo
      const sql = yield* SqlClient.SqlClient
      const stored = (userCode: string) =>
        Effect.map(sql`SELECT 1 FROM device_codes WHERE user_code = ${userCode}`.pipe(Effect.orDie), (rows) => rows.length)
      const old = yield* issue
      yield* after(600 + 7 * 86_400 - 1)
      const recent = yield* issue
      yield* codes.sweep(yield* now)
      expect(yield* stored(old.userCode)).toBe(1)
      yield* after(2)
      yield* codes.sweep(yield* now)
      expect(yield* stored(old.userCode)).toBe(0)
      expect(yield* stored(recent.userCode)).toBe(1)
    }))
  it.effect("DeviceCodesSweeperLive sweeps as soon as it starts, then every 10 minutes", () =>
    Effect.gen(function*() {
      yield* atNow
      const sql = yield* SqlClient.SqlClient
      const stored = (userCode: string) =>
        Effect.map(sql`SELECT 1 FROM device_codes WHERE user_code = ${userCode}`.pipe(Effect.orDie), (rows) => rows.length)
      const realPause = Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 20)))
      /** Checks until the row is gone, doing `between` each time: the sweep runs on its own fiber. */
      const sweptEventually = (userCode: string, between: Effect.Effect<void>) =>
        Effect.flatMap(stored(userCode), (count) => count === 0 ? Effect.void : Effect.fail("still there" as const)).pipe(
          Effect.tapError(() => Effect.zipRight(between, realPause)),
          Effect.retry({ times: 100 }),
          Effect.orDie
        )
      const first = yield* issue
      yield* after(60)
      const second = yield* issue
      // The first code is now 7 days and 1 second past its expiry; the second 59 seconds short of it.
      yield* after(600 + 7 * 86_400 + 1 - 60)
      yield* Effect.scoped(Effect.gen(function*() {
        yield* Layer.build(DeviceCodesSweeperLive)
        yield* sweptEventually(first.userCode, Effect.void)
        expect(yield* stored(second.userCode)).toBe(1)
        yield* sweptEventually(second.userCode, TestClock.adjust("10 minutes"))
      }))
    }))
})
