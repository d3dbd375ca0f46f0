import { expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { randomHex } from "@platform/crypto"
import { Effect } from "effect"
import { AccountsTest } from "./support/AccountsUnderTest.ts"
import { signedInCarbon } from "./support/contacts.ts"
import { deliveriesTo, feedOf, memberApp } from "./support/events.ts"

const freshHandle = (stem: string) => `${stem}${randomHex(6)}`

/** On the real clock: the time rules (24 hours, 10 days) are walked on the TestClock in id-change-life.test.ts. */
layer(AccountsTest(), { excludeTestServices: true })("POST /v1/me/id", (it) => {
  it.effect("a change answers the account, keeps the old id from others for 10 days, reaches member apps; the 6th in 24 hours is 429", () =>
    Effect.gen(function*() {
      const owner = yield* signedInCarbon()
      const other = yield* signedInCarbon()
      const app = yield* memberApp(owner.carbon.uuid)
      const first = owner.carbon.handle
      const second = freshHandle("second")

      const before = Date.now()
      const changed = yield* owner.api.post("/v1/me/id", { id: `c:${second}` })
      const after = Date.now()
      expect(changed.status).toBe(200)
      expect(changed.body).toMatchObject({ id: `c:${second}`, kind: "carbon", version: 2 })

      const refused = yield* other.api.post("/v1/me/id", { id: `c:${first}` })
      expect(refused.status).toBe(409)
      expect(refused.body.error.code).toBe("id_reserved")
      const reservedUntil = Date.parse(refused.body.error.details.reserved_until)
      expect(reservedUntil).toBeGreaterThanOrEqual(before + 10 * 86_400_000)
      expect(reservedUntil).toBeLessThanOrEqual(after + 10 * 86_400_000)

      // Its owner takes it back, then three more: the 6th change within 24 hours is 429 with Retry-After.
      expect((yield* owner.api.post("/v1/me/id", { id: first })).body.id).toBe(`c:${first}`)
      for (let n = 3; n <= 5; n++) {
        expect((yield* owner.api.post("/v1/me/id", { id: `c:${freshHandle(`n${n}`)}` })).status).toBe(200)
      }
      const sixth = yield* owner.api.post("/v1/me/id", { id: `c:${freshHandle("sixth")}` })
      expect(sixth.status).toBe(429)
      expect(sixth.body.error.code).toBe("rate_limited")
      expect(Number(sixth.headers.get("retry-after"))).toBe(sixth.body.error.details.retry_after_seconds)
      expect(sixth.body.error.details.retry_after_seconds).toBeGreaterThan(86_000)

      // Every change reached the member app, in the feed and as a webhook delivery.
      const heard = (yield* feedOf(owner.carbon.uuid, "account.id_changed")).filter((row) => row.receiver === `app:${app.appId}`)
      expect(heard).toHaveLength(5)
      expect(heard[0]!.body.data).toMatchObject({
        kind: "carbon",
        uuid: owner.carbon.uuid,
        old_id: `c:${first}`,
        new_id: `c:${second}`,
        membership_id: expect.any(String)
      })
      const deliveries = yield* deliveriesTo(`app:${app.appId}`, "account.id_changed")
      expect(deliveries).toHaveLength(5)
      expect(deliveries.map((delivery) => JSON.parse(delivery.body).data)).toContainEqual(
        expect.objectContaining({ old_id: `c:${second}`, new_id: `c:${first}` })
      )
    }))

  it.effect("id_taken with free suggestions, invalid_id with its reason; the same id again changes nothing", () =>
    Effect.gen(function*() {
      const owner = yield* signedInCarbon()
      const other = yield* signedInCarbon()
      const taken = yield* owner.api.post("/v1/me/id", { id: `c:${other.carbon.handle}` })
      expect(taken.status).toBe(409)
      expect(taken.body.error.code).toBe("id_taken")
      expect(taken.body.error.details.suggestions.length).toBeGreaterThan(0)
      for (const suggestion of taken.body.error.details.suggestions) expect(suggestion).toMatch(/^c:[a-z0-9_-]{3,30}$/)

      const malformed = yield* owner.api.post("/v1/me/id", { id: "c:x" })
      expect(malformed.status).toBe(422)
      expect(malformed.body.error).toMatchObject({ code: "invalid_id", details: { reason: "invalid" } })
      const reservedWord = yield* owner.api.post("/v1/me/id", { id: "c:admin" })
      expect(reservedWord.body.error).toMatchObject({ code: "invalid_id", details: { reason: "reserved_word" } })
      const otherKind = yield* owner.api.post("/v1/me/id", { id: `si:${freshHandle("agent")}` })
      expect(otherKind.body.error).toMatchObject({ code: "invalid_id", details: { reason: "invalid" } })

      const same = yield* owner.api.post("/v1/me/id", { id: `C:${owner.carbon.handle.toUpperCase()}` })
      expect(same.status).toBe(200)
      expect(same.body.version).toBe(1)
    }))

  it.effect("a custodian changes its Silicon's id the same way: reserved, counted and recorded", () =>
    Effect.gen(function*() {
      const custodian = yield* signedInCarbon()
      const siliconHandle = freshHandle("agent")
      const created = yield* custodian.api.post("/v1/me/silicons", { id: siliconHandle, display_name: "Agent" })
      const uuid = created.body.silicon.uuid as string
      const next = freshHandle("renamed")
      const changed = yield* custodian.api.post(`/v1/me/silicons/${uuid}/id`, { id: next })
      expect(changed.body.id).toBe(`si:${next}`)
      const other = yield* signedInCarbon()
      const otherSilicon = yield* other.api.post("/v1/me/silicons", { id: freshHandle("other"), display_name: "Other" })
      const refused = yield* other.api.post(`/v1/me/silicons/${otherSilicon.body.silicon.uuid}/id`, { id: `si:${siliconHandle}` })
      expect(refused.body.error.code).toBe("id_reserved")
      const sql = yield* SqlClient.SqlClient
      const history = yield* sql`SELECT old_id, new_id FROM account_id_changes WHERE account_uuid = ${uuid}`
      expect(history).toEqual([{ old_id: `si:${siliconHandle}`, new_id: `si:${next}` }])
    }))
})
