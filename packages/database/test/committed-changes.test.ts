import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, Layer, Option } from "effect"
import { changeTriggers, type ChangeWatch, CommittedChanges, TestDatabase } from "../src/index.ts"
import { widgetMigrations } from "./fixtures/widgets.ts"

const CHANNEL = "widget_changes"

const RENAMES_IGNORED = "widget_changes_but_names"
const INSERTS_IGNORED = "widget_changes_but_inserts"

const announcedWidgets = {
  ...widgetMigrations,
  "0003_widget_changes": Effect.flatMap(SqlClient.SqlClient, (sql) => changeTriggers(sql, CHANNEL, ["widgets"])),
  "0004_widget_changes_but_names": Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => changeTriggers(sql, RENAMES_IGNORED, [{ table: "widgets", ignoring: ["name"] }])
  ),
  "0005_widget_changes_but_inserts": Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => changeTriggers(sql, INSERTS_IGNORED, [{ table: "widgets", inserts: false }])
  )
}

const fence = (watch: ChangeWatch) => Effect.async<boolean>((resume) => watch.fence((known) => resume(Effect.succeed(known))))

/** Two "processes" on one database: one writes, the other watches. */
const writerAndWatcher = Effect.gen(function*() {
  const database = yield* TestDatabase.sharedByProcesses(announcedWidgets)
  const writer = Context.get(yield* Layer.build(database), SqlClient.SqlClient)
  const watcher = yield* Layer.build(database)
  return { writer, watch: Context.get(watcher, CommittedChanges).watch(CHANNEL), watcherSql: Context.get(watcher, SqlClient.SqlClient) }
})

/** What the fence promises: a change committed before it was asked for has been counted when it answers. */
const everyCommitCountedByTheNextFence = Effect.gen(function*() {
  const { watch, writer } = yield* writerAndWatcher
  const changes = Option.getOrThrow(watch)
  expect(yield* fence(changes)).toBe(true)
  for (let round = 0; round < 200; round++) {
    const before = changes.generation()
    yield* writer`INSERT INTO widgets (name) VALUES (${`w${round}`})`
    expect(yield* fence(changes)).toBe(true)
    expect(changes.generation()).toBeGreaterThan(before)
  }
  // A rolled-back write announces nothing, nor does a statement that writes no row or changes no value.
  const settled = changes.generation()
  yield* writer.withTransaction(Effect.zipRight(writer`INSERT INTO widgets (name) VALUES ('gone')`, Effect.fail("undo")))
    .pipe(Effect.ignore)
  expect(yield* fence(changes)).toBe(true)
  expect(changes.generation()).toBe(settled)
  yield* writer`UPDATE widgets SET name = 'none' WHERE id < 0`
  yield* writer`UPDATE widgets SET name = name`
  expect(yield* fence(changes)).toBe(true)
  expect(changes.generation()).toBe(settled)
  yield* writer`TRUNCATE widgets`
  expect(yield* fence(changes)).toBe(true)
  expect(changes.generation()).toBeGreaterThan(settled)
})

/** A table may ignore a column: an update that sets only that column is not announced, any other write is. */
const anIgnoredColumnIsNotAChange = Effect.gen(function*() {
  const database = yield* TestDatabase.sharedByProcesses(announcedWidgets)
  const writer = Context.get(yield* Layer.build(database), SqlClient.SqlClient)
  const watcher = Context.get(yield* Layer.build(database), CommittedChanges)
  const everything = Option.getOrThrow(watcher.watch(CHANNEL))
  const butNames = Option.getOrThrow(watcher.watch(RENAMES_IGNORED))
  yield* writer`INSERT INTO widgets (name) VALUES ('a')`
  expect(yield* fence(butNames)).toBe(true)
  const [all, names] = [everything.generation(), butNames.generation()]
  yield* writer`UPDATE widgets SET name = 'b'`
  expect(yield* fence(butNames)).toBe(true)
  expect([everything.generation() > all, butNames.generation()]).toEqual([true, names])
  yield* writer`UPDATE widgets SET id = id + 100, name = 'c'`
  expect(yield* fence(butNames)).toBe(true)
  expect(butNames.generation()).toBeGreaterThan(names)
  // A table announced without its inserts: a new row is no change, a deleted one is.
  const butInserts = Option.getOrThrow(watcher.watch(INSERTS_IGNORED))
  expect(yield* fence(butInserts)).toBe(true)
  const beforeInsert = butInserts.generation()
  yield* writer`INSERT INTO widgets (name) VALUES ('d')`
  expect(yield* fence(butInserts)).toBe(true)
  expect(butInserts.generation()).toBe(beforeInsert)
  yield* writer`DELETE FROM widgets WHERE name = 'd'`
  expect(yield* fence(butInserts)).toBe(true)
  expect(butInserts.generation()).toBeGreaterThan(beforeInsert)
})

/** A listening connection that is cut may have missed reports: that counts as a change, and the watch listens again. */
const aCutConnectionCountsAsAChange = Effect.gen(function*() {
  const { watch, watcherSql, writer } = yield* writerAndWatcher
  const changes = Option.getOrThrow(watch)
  expect(yield* fence(changes)).toBe(true)
  const before = changes.generation()
  yield* watcherSql`
    SELECT pg_terminate_backend(pid) FROM pg_stat_activity
    WHERE datname = current_database() AND application_name = 'change-listener'
  `
  // Until the listener is back the fence answers false (callers read the database); then it counts again.
  let known = yield* fence(changes)
  while (!known) {
    yield* Effect.sleep("100 millis")
    known = yield* fence(changes)
  }
  expect(changes.generation()).toBeGreaterThan(before)
  const listening = changes.generation()
  yield* writer`INSERT INTO widgets (name) VALUES ('after')`
  expect(yield* fence(changes)).toBe(true)
  expect(changes.generation()).toBeGreaterThan(listening)
})

/** The embedded database is one session for every client: its notifications reach no listener, so nothing is watched. */
const nothingWatchedOnTheEmbeddedDatabase = Effect.gen(function*() {
  const { watch } = yield* writerAndWatcher
  expect(Option.isNone(watch)).toBe(true)
})

describe("CommittedChanges", () => {
  if (TestDatabase.hasServer) {
    it.scopedLive("on a PostgreSQL server: every commit of another process is counted by the next fence (200 rounds); a rollback, a write of no row or one that changes no value is not", () =>
      everyCommitCountedByTheNextFence)
    it.scopedLive("on a PostgreSQL server: an update of an ignored column alone is not announced, nor an insert where inserts are not", () => anIgnoredColumnIsNotAChange)
    it.scopedLive("on a PostgreSQL server: a cut listening connection counts as a change, and the watch listens again", () =>
      aCutConnectionCountsAsAChange)
  } else {
    it.scopedLive("on the embedded database: nothing is watched (caches read through)", () => nothingWatchedOnTheEmbeddedDatabase)
  }
})
