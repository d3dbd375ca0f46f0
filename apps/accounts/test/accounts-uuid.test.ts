import { describe, expect, it, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Effect, FastCheck, Option } from "effect"
import { AccountsRepo } from "../src/accounts/AccountsRepo.ts"
import {
  firstIndexOfLength,
  indexOfUuid,
  MAX_UUID_LENGTH,
  permuteDigits,
  unpermuteDigits,
  uuidAt,
  uuidsOfLength
} from "../src/accounts/uuidPermutation.ts"
import { AccountReposTest, atNow, nextUuidIndex, setNextUuidIndex } from "./support/accountsRepo.ts"

const THREE = 238_328

const carbon = (handle: string) => ({ id: `c:${handle}`, displayName: handle, email: `${handle}@example.com` })

describe("uuid permutation", () => {
  it("maps the 238,328 first indices onto every 3-character uuid exactly once", () => {
    expect(uuidsOfLength(3)).toBe(THREE)
    const seen = new Set<string>()
    const malformed: Array<string> = []
    for (let index = 0; index < THREE; index++) {
      const uuid = uuidAt(index)
      if (!/^[A-Za-z0-9]{3}$/.test(uuid)) malformed.push(uuid)
      seen.add(uuid)
    }
    expect(malformed).toEqual([])
    expect(seen.size).toBe(THREE)
  })

  it("switches to 4 characters exactly when the 3-character values are used up, then to 5", () => {
    expect(uuidAt(THREE - 1)).toHaveLength(3)
    expect(firstIndexOfLength(4)).toBe(THREE)
    expect(uuidAt(THREE)).toHaveLength(4)
    expect(uuidAt(THREE + uuidsOfLength(4) - 1)).toHaveLength(4)
    expect(uuidAt(THREE + uuidsOfLength(4))).toHaveLength(5)
  })

  it("is a bijection at every length: the inverse gives the index back (property)", () => {
    const lastIndex = firstIndexOfLength(MAX_UUID_LENGTH + 1) - 1
    FastCheck.assert(
      FastCheck.property(FastCheck.integer({ min: 0, max: lastIndex }), (index) => {
        const uuid = uuidAt(index)
        expect(uuid).toMatch(/^[A-Za-z0-9]+$/)
        expect(indexOfUuid(uuid)).toBe(index)
      }),
      { numRuns: 5_000 }
    )
    FastCheck.assert(
      FastCheck.property(
        FastCheck.integer({ min: 3, max: MAX_UUID_LENGTH }).chain((length) =>
          FastCheck.array(FastCheck.integer({ min: 0, max: 61 }), { minLength: length, maxLength: length })
        ),
        (digits) => {
          const permuted = permuteDigits(digits)
          expect(permuted.every((digit) => digit >= 0 && digit < 62)).toBe(true)
          expect(unpermuteDigits(permuted)).toEqual(digits)
        }
      ),
      { numRuns: 5_000 }
    )
  })

  it("two different indices never give the same uuid, including across the length switch (property)", () => {
    const index = FastCheck.integer({ min: 0, max: firstIndexOfLength(6) - 1 })
    FastCheck.assert(
      FastCheck.property(index, index, (a, b) => a === b || uuidAt(a) !== uuidAt(b)),
      { numRuns: 5_000 }
    )
  })

  it("consecutive uuids do not look sequential", () => {
    const uuids = Array.from({ length: 1_000 }, (_, index) => uuidAt(index))
    const sharedPrefix = uuids.slice(1).filter((uuid, index) => uuid.slice(0, 2) === uuids[index]!.slice(0, 2))
    expect(sharedPrefix.length).toBeLessThan(10)
    expect([...uuids].sort()).not.toEqual(uuids)
  })

  it("refuses what is not a uuid", () => {
    expect(() => indexOfUuid("ab")).toThrow(RangeError)
    expect(() => indexOfUuid("ab-")).toThrow(RangeError)
    expect(() => uuidAt(-1)).toThrow(RangeError)
  })
})

layer(AccountReposTest())("uuid allocation in the database", (it) => {
  it.effect("each new account takes the uuid of the counter's next index", () =>
    Effect.gen(function*() {
      yield* atNow
      const accounts = yield* AccountsRepo
      const before = yield* nextUuidIndex
      const first = yield* accounts.createCarbon(carbon("first"))
      const second = yield* accounts.createCarbon(carbon("second"))
      expect([first.uuid, second.uuid]).toEqual([uuidAt(before), uuidAt(before + 1)])
      expect(yield* nextUuidIndex).toBe(before + 2)
    }))

  it.effect("50 creations at once get 50 distinct uuids; refused ones give their number back (no gaps)", () =>
    Effect.gen(function*() {
      yield* atNow
      const accounts = yield* AccountsRepo
      const before = yield* nextUuidIndex
      yield* accounts.createCarbon(carbon("crowd0"))
      const start = before + 1
      // 40 new handles and 10 that repeat crowd0: those fail with id_taken.
      const attempts = Array.from({ length: 50 }, (_, n) => carbon(n % 5 === 0 ? "crowd0" : `crowd${n}`))
      const results = yield* Effect.all(
        attempts.map((attempt) => Effect.either(accounts.createCarbon(attempt))),
        { concurrency: "unbounded" }
      )
      const created = results.flatMap((result) => (result._tag === "Right" ? [result.right.uuid] : []))
      const refused = results.flatMap((result) => (result._tag === "Left" ? [result.left._tag] : []))
      expect(created).toHaveLength(40)
      expect(refused).toEqual(Array(10).fill("IdTaken"))
      expect(new Set(created).size).toBe(40)
      const expected = Array.from({ length: 40 }, (_, n) => uuidAt(start + n))
      expect([...created].sort()).toEqual([...expected].sort())
      expect(yield* nextUuidIndex).toBe(start + 40)
    }))

  it.effect("a uuid is never handed out again, even after its account row is gone", () =>
    Effect.gen(function*() {
      yield* atNow
      const accounts = yield* AccountsRepo
      const sql = yield* SqlClient.SqlClient
      const gone = yield* accounts.createCarbon(carbon("ephemeral"))
      yield* sql`DELETE FROM accounts WHERE uuid = ${gone.uuid}`.pipe(Effect.orDie)
      expect(yield* accounts.findByUuid(gone.uuid)).toEqual(Option.none())
      const next = yield* accounts.createCarbon(carbon("ephemeral"))
      expect(next.uuid).not.toBe(gone.uuid)
      expect(indexOfUuid(next.uuid)).toBe(indexOfUuid(gone.uuid) + 1)
    }))
})

layer(AccountReposTest())("uuid allocation at the end of the 3-character values", (it) => {
  it.effect("the last two 3-character uuids are used, then 4-character ones follow", () =>
    Effect.gen(function*() {
      yield* atNow
      const accounts = yield* AccountsRepo
      yield* setNextUuidIndex(THREE - 2)
      const made = [] as Array<string>
      for (const handle of ["last3a", "last3b", "first4a", "first4b"]) {
        made.push((yield* accounts.createCarbon(carbon(handle))).uuid)
      }
      expect(made.map((uuid) => uuid.length)).toEqual([3, 3, 4, 4])
      expect(made).toEqual([uuidAt(THREE - 2), uuidAt(THREE - 1), uuidAt(THREE), uuidAt(THREE + 1)])
      for (const uuid of made) expect(Option.isSome(yield* accounts.findByUuid(uuid))).toBe(true)
    }))

  it.effect("concurrent creations across the switch still get distinct uuids", () =>
    Effect.gen(function*() {
      yield* atNow
      const accounts = yield* AccountsRepo
      yield* setNextUuidIndex(THREE + uuidsOfLength(4) - 25)
      const created = yield* Effect.all(
        Array.from({ length: 50 }, (_, n) => accounts.createCarbon(carbon(`switch${n}`))),
        { concurrency: "unbounded" }
      )
      const uuids = created.map((row) => row.uuid)
      expect(new Set(uuids).size).toBe(50)
      expect(uuids.filter((uuid) => uuid.length === 4)).toHaveLength(25)
      expect(uuids.filter((uuid) => uuid.length === 5)).toHaveLength(25)
    }))
})
