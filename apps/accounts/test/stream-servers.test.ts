import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { TestDatabase } from "@platform/database"
import { Context, Effect, ExecutionStrategy, Exit, Fiber, Layer, Schedule, Scope } from "effect"
import { accountsMigrations } from "../src/migrations.ts"
import type { AccountsSettings } from "../src/config.ts"
import { accountsServerOn, AccountsUnderTest } from "./support/AccountsUnderTest.ts"
import { createApp } from "./support/apps.ts"
import { createCarbon } from "./support/carbons.ts"
import { insertFeedEvent } from "./support/eventFeed.ts"
import { openEventStream } from "./support/eventStream.ts"

type Database = Layer.Layer<SqlClient.SqlClient>

/**
 * An accounts server on `database` (its own pool, as another process has), stopped with `stop` or, at
 * the latest, with the test's scope (before the database it opened later than).
 */
const startServer = (database: Database, overrides: Partial<AccountsSettings> = {}) =>
  Effect.gen(function*() {
    const scope = yield* Scope.fork(yield* Effect.scope, ExecutionStrategy.sequential)
    const context = yield* Layer.buildWithScope(accountsServerOn(database, overrides), scope)
    return {
      url: Context.get(context, AccountsUnderTest).url,
      sql: Context.get(context, SqlClient.SqlClient),
      stop: Scope.close(scope, Exit.void)
    }
  })

const basic = (appId: string, secret: string) => ({
  authorization: `Basic ${Buffer.from(`${appId}:${secret}`).toString("base64")}`
})

const newApp = (sql: SqlClient.SqlClient) =>
  Effect.gen(function*() {
    const app = yield* createApp()
    const carbon = yield* createCarbon()
    return { ...app, headers: basic(app.appId, app.secret), receiver: `app:${app.appId}`, accountUuid: carbon.uuid }
  }).pipe(Effect.provideService(SqlClient.SqlClient, sql))

const openRows = (sql: SqlClient.SqlClient, receiver: string) =>
  Effect.map(
    Effect.orDie(sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM event_streams WHERE receiver = ${receiver}`),
    (rows) => rows[0]!.n
  )

/** Waits (polling the database, not guessing a delay) until the receiver has `n` open streams recorded. */
const untilOpenRows = (sql: SqlClient.SqlClient, receiver: string, n: number) =>
  Effect.repeat(openRows(sql, receiver), { until: (count) => count === n, schedule: Schedule.spaced("20 millis") })

describe("GET /v1/events/stream across servers on one database", () => {
  it.scopedLive("resumes from Last-Event-ID across a server restart: the shutdown sends stream.closed at once, nothing lost or repeated", () =>
    Effect.gen(function*() {
      const database = yield* TestDatabase.sharedByProcesses(accountsMigrations)
      // A long drain deadline: the stream must end because the server tells it to, not because the deadline cut it.
      const first = yield* startServer(database, { drainSeconds: 120 })
      const app = yield* newApp(first.sql)
      const insert = (n: number) =>
        insertFeedEvent({ receiver: app.receiver, accountUuid: app.accountUuid, data: { n } }).pipe(
          Effect.provideService(SqlClient.SqlClient, first.sql)
        )
      const stream = yield* openEventStream(first.url, app.headers)
      yield* stream.next
      const before = yield* Effect.forEach([1, 2], insert)
      const frames = yield* stream.nextEvents(2)
      expect(frames.map((frame) => JSON.parse(frame.data!))).toEqual(before)
      const lastId = frames[1]!.id!

      const stopping = yield* Effect.fork(first.stop)
      const [closed] = yield* stream.nextEvents(1)
      expect(closed).toEqual({ id: lastId, event: "stream.closed", data: JSON.stringify({ reason: "server_shutdown" }) })
      yield* stream.ended
      yield* Fiber.join(stopping)

      const second = yield* startServer(database)
      expect(yield* openRows(second.sql, app.receiver)).toBe(0)
      const after = yield* Effect.forEach([3, 4], (n) =>
        insertFeedEvent({ receiver: app.receiver, accountUuid: app.accountUuid, data: { n } }).pipe(
          Effect.provideService(SqlClient.SqlClient, second.sql)
        ))
      const resumed = yield* openEventStream(second.url, { ...app.headers, "last-event-id": lastId })
      expect((yield* resumed.nextEvents(2)).map((frame) => JSON.parse(frame.data!))).toEqual(after)
    }), { timeout: 60_000 })

  it.scopedLive("5 streams per app, counted across two servers: the sixth is 429 too_many_streams with Retry-After; a closed one frees its place", () =>
    Effect.gen(function*() {
      const database = yield* TestDatabase.sharedByProcesses(accountsMigrations)
      const one = yield* startServer(database)
      const two = yield* startServer(database)
      const app = yield* newApp(one.sql)
      const streamScope = yield* Scope.make()
      const onOne = yield* Effect.forEach([1, 2, 3], () => openEventStream(one.url, app.headers).pipe(Scope.extend(streamScope)))
      const onTwo = yield* Effect.forEach([1, 2], () => openEventStream(two.url, app.headers))
      expect([...onOne, ...onTwo].map((stream) => stream.status)).toEqual([200, 200, 200, 200, 200])
      for (const server of [one, two]) {
        const sixth = yield* openEventStream(server.url, app.headers)
        expect(sixth.status).toBe(429)
        expect(sixth.headers.get("retry-after")).toBe("30")
        expect(sixth.error.error).toMatchObject({ code: "too_many_streams", details: { limit: 5, retry_after_seconds: 30 } })
      }
      // Another app is not held back by this one's streams.
      const other = yield* newApp(one.sql)
      expect((yield* openEventStream(two.url, other.headers)).status).toBe(200)

      yield* Scope.close(streamScope, Exit.void)
      yield* untilOpenRows(one.sql, app.receiver, 2)
      expect((yield* openEventStream(two.url, app.headers)).status).toBe(200)
    }), { timeout: 60_000 })

  it.scopedLive("a stopped process's streams do not count once their lease has passed", () =>
    Effect.gen(function*() {
      const database = yield* TestDatabase.sharedByProcesses(accountsMigrations)
      const server = yield* startServer(database)
      const app = yield* newApp(server.sql)
      // What a process that died without closing its streams leaves: rows whose lease is not renewed.
      const lapsed = new Date(Date.now() - 1000)
      for (const n of [1, 2, 3, 4, 5]) {
        yield* server.sql`
          INSERT INTO event_streams (id, receiver, opened_at, lease_until)
          VALUES (${`str_crashed_${n}`}, ${app.receiver}, ${lapsed}, ${lapsed})
        `.pipe(Effect.orDie)
      }
      const stream = yield* openEventStream(server.url, app.headers)
      expect(stream.status).toBe(200)
      expect(yield* openRows(server.sql, app.receiver)).toBe(1)
    }), { timeout: 60_000 })

  it.scopedLive("a server takes ACCOUNTS_STREAMS_PER_SERVER streams (500 by default): then 503 stream_capacity_reached with Retry-After", () =>
    Effect.gen(function*() {
      const database = yield* TestDatabase.sharedByProcesses(accountsMigrations)
      const small = yield* startServer(database, { streamsPerServer: 2 })
      const other = yield* startServer(database)
      const apps = yield* Effect.forEach([1, 2, 3], () => newApp(small.sql))
      const streamScope = yield* Scope.make()
      const kept = yield* openEventStream(small.url, apps[0]!.headers)
      const toClose = yield* openEventStream(small.url, apps[1]!.headers).pipe(Scope.extend(streamScope))
      expect([kept.status, toClose.status]).toEqual([200, 200])
      const third = yield* openEventStream(small.url, apps[2]!.headers)
      expect(third.status).toBe(503)
      expect(third.headers.get("retry-after")).toBe("5")
      expect(third.error.error).toMatchObject({ code: "stream_capacity_reached", details: { retry_after_seconds: 5 } })
      // The cap is this server's: another server on the same database takes the stream.
      expect((yield* openEventStream(other.url, apps[2]!.headers)).status).toBe(200)
      yield* Scope.close(streamScope, Exit.void)
      yield* untilOpenRows(small.sql, apps[1]!.receiver, 0)
      expect((yield* openEventStream(small.url, apps[2]!.headers)).status).toBe(200)
    }), { timeout: 60_000 })
})
