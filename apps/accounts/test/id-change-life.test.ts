import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { randomHex } from "@platform/crypto"
import { Duration, Effect, Layer, TestClock } from "effect"
import { AccountsConfigOf } from "../src/config.ts"
import { IdChanges } from "../src/profile/IdChanges.ts"
import { testSettings } from "./support/AccountsUnderTest.ts"
import { AccountReposTest, NOW } from "./support/accountsRepo.ts"
import { createCarbon } from "./support/carbons.ts"

const freshHandle = (stem: string) => `${stem}${randomHex(6)}`
const day = Duration.toMillis(Duration.days(1))

/** The error (tag, code and details) a change ends with, or "changed". */
const outcome = (account: { readonly uuid: string }, id: string) =>
  Effect.flatMap(IdChanges, (changes) => changes.changeId({ uuid: account.uuid, kind: "carbon" }, id)).pipe(
    Effect.as("changed" as const),
    Effect.catchAll((error) => Effect.succeed({ code: error.code, details: "details" in error ? error.details : undefined }))
  )

/**
 * The id-change rules are about 24 hours and 10 days: they are walked here on the TestClock at the
 * service level (the HTTP answers are in me-id-change.test.ts, on the real clock).
 */
layer(Layer.provideMerge(IdChanges.Default, Layer.merge(AccountReposTest(), AccountsConfigOf(testSettings(4100)))))("the id-change life on the TestClock", (it) => {
  it.effect("reserved for its owner 10 days, reclaimable, free after; 5 changes per rolling 24 hours; every change recorded", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(NOW)
      const owner = yield* createCarbon()
      const other = yield* createCarbon()
      const first = owner.handle
      const second = freshHandle("second")

      expect(yield* outcome(owner, `c:${second}`)).toBe("changed")
      // The old id is kept from everyone else for 10 days.
      expect(yield* outcome(other, `c:${first}`)).toEqual({
        code: "id_reserved",
        details: { reserved_until: new Date(NOW + 10 * day).toISOString() }
      })
      // Its owner takes it back (the 2nd change); the id it leaves is reserved for it in turn.
      expect(yield* outcome(owner, `c:${first}`)).toBe("changed")
      expect(yield* outcome(other, `c:${second}`)).toMatchObject({ code: "id_reserved" })

      // Changes 3 to 5 an hour later pass; the 6th within 24 hours is refused until the 1st turns 24 hours old.
      yield* TestClock.adjust(Duration.hours(1))
      for (let n = 3; n <= 5; n++) expect(yield* outcome(owner, `c:${freshHandle(`n${n}`)}`)).toBe("changed")
      expect(yield* outcome(owner, `c:${freshHandle("sixth")}`)).toEqual({
        code: "rate_limited",
        details: { retry_after_seconds: 23 * 3600 }
      })
      // Rolling: once the first two changes are 24 hours old, two more fit, and not a third.
      yield* TestClock.adjust(Duration.hours(23))
      expect(yield* outcome(owner, `c:${freshHandle("later")}`)).toBe("changed")
      expect(yield* outcome(owner, `c:${freshHandle("again")}`)).toBe("changed")
      expect(yield* outcome(owner, `c:${freshHandle("over")}`)).toEqual({
        code: "rate_limited",
        details: { retry_after_seconds: 3600 }
      })

      // 10 days after the owner left `first` (at its 3rd change, 1 hour in), it is anyone's: not a millisecond before.
      yield* TestClock.adjust(Duration.millis(9 * day + Duration.toMillis(Duration.hours(1)) - 1))
      expect(yield* outcome(other, `c:${first}`)).toMatchObject({ code: "id_reserved" })
      yield* TestClock.adjust(Duration.millis(1))
      expect(yield* outcome(other, `c:${first}`)).toBe("changed")

      // Every change is history (kept), and each published account.id_changed in its transaction.
      const sql = yield* SqlClient.SqlClient
      const history = yield* sql<{ old_id: string; new_id: string }>`
        SELECT old_id, new_id FROM account_id_changes WHERE account_uuid = ${owner.uuid} ORDER BY id
      `
      expect(history).toHaveLength(7)
      expect(history.slice(0, 2)).toEqual([
        { old_id: `c:${first}`, new_id: `c:${second}` },
        { old_id: `c:${second}`, new_id: `c:${first}` }
      ])
      const events = yield* sql<{ data: { old_id: string; new_id: string } }>`
        SELECT data FROM account_events WHERE account_uuid = ${owner.uuid} AND type = 'account.id_changed' ORDER BY occurred_at
      `
      expect(events).toHaveLength(7)
      expect(events[0]!.data).toMatchObject({ old_id: `c:${first}`, new_id: `c:${second}` })
    }))
})
