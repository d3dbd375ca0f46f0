import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { TestDatabase } from "@platform/database"
import { Deferred, Effect, Fiber } from "effect"
import { EventFeedReader } from "../src/stream/EventFeedReader.ts"
import { AccountsTest, AccountsUnderTest } from "./support/AccountsUnderTest.ts"
import { createApp } from "./support/apps.ts"
import { createCarbon } from "./support/carbons.ts"
import { insertFeedEvent, untilSettled } from "./support/eventFeed.ts"
import { openEventStream } from "./support/eventStream.ts"
import { signInDirectly } from "./support/signIn.ts"

const basic = (appId: string, secret: string) => ({
  authorization: `Basic ${Buffer.from(`${appId}:${secret}`).toString("base64")}`
})

/** An app with its Basic header, and an account its events are about. */
const appAndAccount = Effect.gen(function*() {
  const app = yield* createApp()
  const carbon = yield* createCarbon()
  return { ...app, headers: basic(app.appId, app.secret), receiver: `app:${app.appId}`, accountUuid: carbon.uuid }
})

layer(AccountsTest(), { excludeTestServices: true })("GET /v1/events/stream", (it) => {
  it.scoped("an app's stream: retry 5000 first, then its own stream events in commit order, each with its id", () =>
    Effect.gen(function*() {
      const { url } = yield* AccountsUnderTest
      const app = yield* appAndAccount
      const other = yield* appAndAccount
      const stream = yield* openEventStream(url, app.headers)
      expect(stream.status).toBe(200)
      expect(stream.headers.get("content-type")).toBe("text/event-stream; charset=utf-8")
      expect(stream.headers.get("cache-control")).toBe("no-store")
      const opening = yield* stream.next
      expect(opening.retry).toBe("5000")
      expect(opening.id).toMatch(/^\d+\.0$/)

      const first = yield* insertFeedEvent({ receiver: app.receiver, accountUuid: app.accountUuid, type: "account.updated" })
      yield* insertFeedEvent({ receiver: other.receiver, accountUuid: other.accountUuid })
      yield* insertFeedEvent({ receiver: app.receiver, accountUuid: app.accountUuid, stream: false })
      const second = yield* insertFeedEvent({ receiver: app.receiver, accountUuid: app.accountUuid, type: "account.deleted" })
      const third = yield* insertFeedEvent({ receiver: app.receiver, accountUuid: app.accountUuid })

      const frames = yield* stream.nextEvents(3)
      expect(frames.map((frame) => frame.event)).toEqual(["account.updated", "account.deleted", "ping"])
      expect(frames.map((frame) => JSON.parse(frame.data!))).toEqual([first, second, third])
      const positions = frames.map((frame) => frame.id!.split(".").map(BigInt))
      for (const [index, [txid, seq]] of positions.entries()) {
        if (index > 0) {
          const [previousTxid, previousSeq] = positions[index - 1]!
          expect(txid! > previousTxid! || (txid === previousTxid && seq! > previousSeq!)).toBe(true)
        }
      }
    }))

  it.scoped("an account's stream (first-party bearer) reads account:<uuid>, and types filters by event type", () =>
    Effect.gen(function*() {
      const { url } = yield* AccountsUnderTest
      const carbon = yield* createCarbon()
      const { accessToken } = yield* signInDirectly(carbon.uuid)
      const receiver = `account:${carbon.uuid}`
      const stream = yield* openEventStream(
        url,
        { authorization: `Bearer ${accessToken}` },
        "?types=silicon.stk_rotated,account.deleted,account.deleted"
      )
      expect(stream.status).toBe(200)
      yield* stream.next
      yield* insertFeedEvent({ receiver, accountUuid: carbon.uuid, type: "ping" })
      const rotated = yield* insertFeedEvent({ receiver, accountUuid: carbon.uuid, type: "silicon.stk_rotated" })
      const deleted = yield* insertFeedEvent({ receiver, accountUuid: carbon.uuid, type: "account.deleted" })
      const frames = yield* stream.nextEvents(2)
      expect(frames.map((frame) => JSON.parse(frame.data!))).toEqual([rotated, deleted])
    }))

  it.scoped("resumes after Last-Event-ID: nothing lost, nothing repeated", () =>
    Effect.gen(function*() {
      const { url } = yield* AccountsUnderTest
      const app = yield* appAndAccount
      const sent = yield* Effect.forEach([1, 2, 3, 4], (n) =>
        insertFeedEvent({ receiver: app.receiver, accountUuid: app.accountUuid, data: { n } }))
      // Without Last-Event-ID a stream starts with what has not settled yet: these four have, so they are before it.
      yield* untilSettled
      const fresh = yield* openEventStream(url, app.headers)
      const start = (yield* fresh.next).id!
      const later = yield* insertFeedEvent({ receiver: app.receiver, accountUuid: app.accountUuid, data: { n: 5 } })
      expect((yield* fresh.nextEvents(1)).map((frame) => JSON.parse(frame.data!))).toEqual([later])

      const fromStart = yield* openEventStream(url, { ...app.headers, "last-event-id": "0.0" })
      const firstTwo = yield* fromStart.nextEvents(2)
      expect(firstTwo.map((frame) => JSON.parse(frame.data!))).toEqual(sent.slice(0, 2))
      const resumed = yield* openEventStream(url, { ...app.headers, "last-event-id": firstTwo[1]!.id! })
      expect((yield* resumed.next).id).toBe(firstTwo[1]!.id)
      const rest = yield* resumed.nextEvents(3)
      expect(rest.map((frame) => JSON.parse(frame.data!))).toEqual([...sent.slice(2), later])
      // The position a fresh stream started at is a Last-Event-ID too.
      const fromFresh = yield* openEventStream(url, { ...app.headers, "last-event-id": start })
      expect((yield* fromFresh.nextEvents(1)).map((frame) => JSON.parse(frame.data!))).toEqual([later])
    }))

  it.scoped("a row committed late by a transaction that began earlier is held back, then sent before the rows after it", () =>
    Effect.gen(function*() {
      const { url } = yield* AccountsUnderTest
      const sql = yield* SqlClient.SqlClient
      const reader = yield* EventFeedReader.pipe(Effect.provide(EventFeedReader.Default))
      const app = yield* appAndAccount
      const stream = yield* openEventStream(url, app.headers)
      const start = (yield* stream.next).id!.split(".").map(BigInt)
      const from = { txid: start[0]!, seq: start[1]! }
      const written = yield* Deferred.make<void>()
      const commit = yield* Deferred.make<void>()
      // The earlier transaction writes its row, then stays open until told to commit.
      const early = yield* sql.withTransaction(
        Effect.gen(function*() {
          const envelope = yield* insertFeedEvent({ receiver: app.receiver, accountUuid: app.accountUuid, data: { n: "early" } })
          yield* Deferred.succeed(written, undefined)
          yield* Deferred.await(commit)
          return envelope
        })
      ).pipe(Effect.orDie, Effect.fork)
      yield* Deferred.await(written)
      if (TestDatabase.hasServer) {
        // PostgreSQL: a later transaction commits while the earlier one is still open.
        const late = yield* insertFeedEvent({ receiver: app.receiver, accountUuid: app.accountUuid, data: { n: "late" } })
        // Both rows are held back (read in a third session) while the earlier transaction runs.
        expect(yield* reader.read(app.receiver, undefined, from, 100)).toEqual([])
        yield* Deferred.succeed(commit, undefined)
        const earlyEnvelope = yield* Fiber.join(early)
        const frames = yield* stream.nextEvents(2)
        expect(frames.map((frame) => JSON.parse(frame.data!))).toEqual([earlyEnvelope, late])
      } else {
        // PGlite has one session: nothing else commits while a transaction is open. The rule that holds a
        // running transaction's row back is seen from inside it, where the row is visible but not yet settled.
        yield* Deferred.succeed(commit, undefined)
        const earlyEnvelope = yield* Fiber.join(early)
        const heldInside = yield* sql.withTransaction(
          Effect.zipRight(
            insertFeedEvent({ receiver: app.receiver, accountUuid: app.accountUuid, data: { n: "inside" } }),
            reader.read(app.receiver, undefined, from, 100)
          )
        ).pipe(Effect.orDie)
        expect(heldInside.map((event) => event.body)).toEqual([earlyEnvelope])
        const frames = yield* stream.nextEvents(2)
        expect(frames.map((frame) => JSON.parse(frame.data!).data)).toEqual([{ n: "early" }, { n: "inside" }])
      }
    }))

  it.scoped("refusals: 401 without credentials, 400 invalid_cursor for a malformed Last-Event-ID, 400 invalid_query for types", () =>
    Effect.gen(function*() {
      const { url } = yield* AccountsUnderTest
      const app = yield* appAndAccount
      const anonymous = yield* openEventStream(url)
      expect(anonymous.status).toBe(401)
      expect(anonymous.headers.get("cache-control")).toBe("no-store")
      expect(anonymous.error.error.code).toBe("unauthenticated")
      const wrongSecret = yield* openEventStream(url, basic(app.appId, "sas_wrong"))
      expect([wrongSecret.status, wrongSecret.error.error.code]).toEqual([401, "invalid_app_credentials"])
      const badBearer = yield* openEventStream(url, { authorization: "Bearer nonsense" })
      expect([badBearer.status, badBearer.error.error.code]).toEqual([401, "invalid_token"])
      for (const lastEventId of ["abc", "1", "1.2.3", "-1.0", "01.2", "99999999999999999999999.1"]) {
        const refused = yield* openEventStream(url, { ...app.headers, "last-event-id": lastEventId })
        expect([refused.status, refused.error.error.code]).toEqual([400, "invalid_cursor"])
      }
      const twentyOne = Array.from({ length: 21 }, () => "ping").join(",")
      for (const query of ["?types=nope", "?types=", `?types=${twentyOne}`, "?types=ping&types=account.updated"]) {
        const refused = yield* openEventStream(url, app.headers, query)
        expect([refused.status, refused.error.error.code, refused.error.error.details.parameter]).toEqual([
          400,
          "invalid_query",
          expect.stringMatching(/^types/)
        ])
      }
    }))
})
