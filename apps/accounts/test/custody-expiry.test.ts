import { expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { TestDatabase } from "@platform/database"
import { Duration, Effect, Layer, Option, TestClock } from "effect"
import { IdsRepo } from "../src/accounts/IdsRepo.ts"
import { AccountsConfigOf } from "../src/config.ts"
import { accountsMigrations } from "../src/migrations.ts"
import { CustodianRequestsRepo } from "../src/silicons/CustodianRequestsRepo.ts"
import { Custody, type SiliconInput } from "../src/silicons/Custody.ts"
import { CustodianRequestsSweeperLive } from "../src/silicons/SiliconSweepers.ts"
import { SiliconsRepo } from "../src/silicons/SiliconsRepo.ts"
import { atNow } from "./support/accountsRepo.ts"
import { testSettings } from "./support/AccountsUnderTest.ts"
import { createCarbon } from "./support/carbons.ts"

const CustodyTest = Layer.mergeAll(Custody.Default, SiliconsRepo.Default, CustodianRequestsRepo.Default, IdsRepo.Default).pipe(
  Layer.provideMerge(TestDatabase.layer(accountsMigrations)),
  Layer.provideMerge(AccountsConfigOf(testSettings(4100)))
)

let counter = 0
const input = (): SiliconInput => ({
  handle: `pending-${counter++}`,
  displayName: "Waiting Agent",
  timezone: "UTC",
  pfpUrl: null,
  stk: "stk-0123456789ab",
  webhookUrl: null
})

/** A self-created Silicon waiting for a new Carbon; both made at the TestClock's time. */
const pendingSilicon = Effect.gen(function*() {
  const carbon = yield* createCarbon()
  const custody = yield* Custody
  const silicon = input()
  const created = yield* custody.selfCreate(silicon, { toUuid: carbon.uuid, toEmail: null })
  return { carbon, handle: silicon.handle, uuid: created.silicon.uuid, requestId: created.request.id }
})

/**
 * Waits (in real time) until the sweep fiber sleeps again: its database work is real I/O,
 * so a clock move wakes it and returns before the sweep is done.
 */
const sweepSettled = Effect.gen(function*() {
  for (let attempt = 0; attempt < 400; attempt++) {
    if ((yield* TestClock.sleeps()).length > 0) return
    yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 25)))
  }
  return yield* Effect.dieMessage("the sweep fiber did not go back to sleep")
})

const isFree = (handle: string) =>
  Effect.map(Effect.flatMap(IdsRepo, (ids) => ids.idAvailability({ kind: "silicon", handle })), (a) => a._tag === "Free")

layer(CustodyTest)("custodian requests over time", (it) => {
  it.scoped("14 days pass: the sweep fiber expires the request, deletes the Silicon and frees its id", () =>
    Effect.gen(function*() {
      yield* atNow
      const { handle, requestId, uuid } = yield* pendingSilicon
      yield* Layer.build(CustodianRequestsSweeperLive)
      yield* sweepSettled
      // Each move wakes the fiber once, at its next 10-minute mark: it sweeps at t+13d, then at t+14d+10m.
      yield* TestClock.adjust(Duration.days(13))
      yield* sweepSettled
      const requests = yield* CustodianRequestsRepo
      expect(Option.getOrThrow(yield* requests.find(requestId)).status).toBe("pending")
      expect(yield* isFree(handle)).toBe(false)
      yield* TestClock.adjust(Duration.days(1))
      yield* sweepSettled
      yield* TestClock.adjust(Duration.minutes(10))
      yield* sweepSettled
      const request = Option.getOrThrow(yield* requests.find(requestId))
      expect(request.status).toBe("expired")
      const silicon = Option.getOrThrow(yield* (yield* SiliconsRepo).find(uuid))
      expect(silicon).toMatchObject({ status: "deleted", handle: null, ended_by: "expired" })
      expect(yield* isFree(handle)).toBe(true)
    }))

  it.effect("accepting after 14 days, before any sweep, expires the request and answers 410", () =>
    Effect.gen(function*() {
      yield* atNow
      const { carbon, handle, requestId } = yield* pendingSilicon
      yield* TestClock.adjust(Duration.days(14))
      const custody = yield* Custody
      const refused = yield* Effect.flip(custody.accept(carbon.uuid, requestId))
      expect(refused._tag).toBe("CustodianRequestExpired")
      const request = Option.getOrThrow(yield* (yield* CustodianRequestsRepo).find(requestId))
      expect(request.status).toBe("expired")
      expect(yield* isFree(handle)).toBe(true)
    }))

  it.effect("declining deletes the Silicon and frees its id at once; accepting within 14 days activates it", () =>
    Effect.gen(function*() {
      yield* atNow
      const custody = yield* Custody
      const declined = yield* pendingSilicon
      yield* TestClock.adjust(Duration.days(3))
      const answer = yield* custody.decline(declined.carbon.uuid, declined.requestId)
      expect(answer.status).toBe("declined")
      expect(yield* isFree(declined.handle)).toBe(true)

      const accepted = yield* pendingSilicon
      yield* TestClock.adjust(Duration.days(14).pipe(Duration.subtract(Duration.seconds(1))))
      const done = yield* custody.accept(accepted.carbon.uuid, accepted.requestId)
      expect(done.status).toBe("accepted")
      const silicon = Option.getOrThrow(yield* (yield* SiliconsRepo).find(accepted.uuid))
      expect(silicon.status).toBe("active")
      const sql = yield* SqlClient.SqlClient
      const events = yield* sql`SELECT type FROM account_events WHERE account_uuid = ${accepted.uuid}`
      expect(events.map((row) => row["type"])).toEqual(["silicon.custodian.accepted"])
    }))
})
