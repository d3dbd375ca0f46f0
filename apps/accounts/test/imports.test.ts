import { expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { TestDatabase } from "@platform/database"
import { RateLimiter } from "@platform/rate-limit"
import { Effect, Fiber } from "effect"
import { Readable } from "node:stream"
import { CsvImports } from "../src/imports/CsvImports.ts"
import { AccountsTest, AccountsUnderTest } from "./support/AccountsUnderTest.ts"
import { createCarbon } from "./support/carbons.ts"
import { type CsvAnswer, gate, postCsv } from "./support/csvUpload.ts"
import { accountOfCode, browser, makeFlowAppWithSecret, run, setSigninConfig, startFlow, verifyCode } from "./support/flows.ts"

/** An app that may import (Basic credentials), with its routes. */
const importingApp = Effect.gen(function*() {
  const { url } = yield* AccountsUnderTest
  const { appId, secret } = yield* makeFlowAppWithSecret()
  const auth = { authorization: `Basic ${Buffer.from(`${appId}:${secret}`).toString("base64")}` }
  const get = (path: string) =>
    run(async () => {
      const response = await fetch(`${url}/v1/apps/${appId}${path}`, { headers: auth })
      return { status: response.status, body: await response.json() as any }
    })
  return {
    appId,
    imports: `${url}/v1/apps/${appId}/imports`,
    send: (body: AsyncIterable<string> | string, headers: Record<string, string> = {}) =>
      run(() => postCsv(`${url}/v1/apps/${appId}/imports`, body, { ...auth, ...headers })),
    get,
    errorsOf: (importId: string) => Effect.map(get(`/imports/${importId}/errors?limit=200`), (answer) => answer.body.items as Array<any>)
  }
})

const expectCreated = (answer: CsvAnswer) => {
  expect(answer.status, JSON.stringify(answer.body)).toBe(201)
  return answer.body
}

/** `count` rows from `first`, each with its own email and external id, in chunks of 1000 rows. */
async function* generatedRows(count: number, hold?: { readonly afterRows: number; readonly until: Promise<void> }) {
  yield "external_id,email,display_name,tags[]\n"
  for (let start = 0; start < count; start += 1000) {
    if (hold !== undefined && start === hold.afterRows) await hold.until
    let chunk = ""
    for (let i = start; i < Math.min(start + 1000, count); i++) chunk += `ext-${i},person${i}@bulk.example,Person ${i},a;b\n`
    yield chunk
  }
}

/** Waits until the app's newest import reads as `predicate` says (polling its job). */
const untilJob = (app: Effect.Effect.Success<typeof importingApp>, predicate: (job: any) => boolean) =>
  Effect.gen(function*() {
    for (let attempt = 0; attempt < 600; attempt++) {
      const job = (yield* app.get("/imports")).body.items[0]
      if (job !== undefined && predicate(job)) return job
      yield* Effect.sleep("50 millis")
    }
    return yield* Effect.dieMessage("the import never reached the expected state")
  })

/**
 * An import run by the service itself, for what a test cannot stage over HTTP without racing the
 * server's own teardown: a body that breaks off, a request that ends while the file is read.
 */
const importOf = (appId: string, source: AsyncIterable<string>) =>
  Effect.flatMap(CsvImports, (imports) =>
    imports.run({ appId, startedBy: null, body: Readable.from(source), timeBudgetSeconds: 300 })).pipe(
      Effect.provide(CsvImports.Default)
    )

/**
 * The largest file a request may carry, on a PostgreSQL server. The embedded database writes in one WASM thread
 * at a quarter of that speed: there the file is 25,000 rows, which still streams through 25 batches, and a file
 * over the limit is read to its 100,000th row by the too_many_rows test below.
 */
const GENERATED_ROWS = TestDatabase.hasServer ? 100_000 : 25_000

layer(AccountsTest(), { excludeTestServices: true })("CSV imports", (it) => {
  it.effect(`${GENERATED_ROWS.toLocaleString("en-US")} generated rows stream in with bounded memory, progress shows while it runs, stats count them`, () =>
    Effect.gen(function*() {
      const app = yield* importingApp
      const held = gate()
      let peak = process.memoryUsage().rss
      const before = peak
      const started = performance.now()
      const sampler = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage().rss)
      }, 20)
      const answer = yield* Effect.fork(app.send(generatedRows(GENERATED_ROWS, { afterRows: 5000, until: held.opened })))
      // The body stalls after 5,000 rows: the job shows the batches written, still running.
      const running = yield* untilJob(app, (job) => job.rows_read >= 4000)
      expect(running).toMatchObject({ status: "running", rows_failed: 0, finished_at: null })
      expect(running.rows_imported).toBe(running.rows_read)
      held.open()
      const job = expectCreated(yield* answer.await.pipe(Effect.flatten))
      clearInterval(sampler)
      console.log(`imports: ${GENERATED_ROWS} rows in ${Math.round(performance.now() - started)} ms, peak RSS ${Math.round(peak / 1048576)} MB (${Math.round((peak - before) / 1048576)} MB above the start)`)
      expect(job).toMatchObject({ status: "completed", rows_read: GENERATED_ROWS, rows_imported: GENERATED_ROWS, rows_failed: 0, error: null })
      expect(peak - before).toBeLessThan(512 * 1048576)
      const record = yield* app.get("")
      expect(record.body.stats).toMatchObject({ users: GENERATED_ROWS, imported_unclaimed: GENERATED_ROWS })
      expect((yield* app.get(`/imports/${job.import_id}`)).body).toEqual(job)
    }), 120_000)

  it.effect("a malformed or invalid row is reported by its line; the other rows are imported", () =>
    Effect.gen(function*() {
      const app = yield* importingApp
      const csv = [
        "email,display_name,phone",
        "one@rows.example,One,",
        "two@rows.example,Two,+14155550100,extra",
        "not-an-email,Three,",
        "\"four@rows.example\",\"Four, with a comma\",+14155550101",
        ",Nobody,"
      ].join("\n")
      const job = expectCreated(yield* app.send(csv))
      expect(job).toMatchObject({ status: "completed", rows_read: 5, rows_imported: 2, rows_failed: 3 })
      const errors = yield* app.errorsOf(job.import_id)
      expect(errors).toEqual([
        { line: 3, row: 2, column: null, code: "malformed_row", message: expect.stringContaining("Invalid Record Length") },
        { line: 4, row: 3, column: "email", code: "invalid_email", message: expect.stringContaining("not-an-email") },
        { line: 6, row: 5, column: null, code: "no_contact", message: "a row needs an email or a phone" }
      ])
    }))

  it.effect("the row limits: values 8 KB, lists 50 items, 10 emails, 10 phones, external_id 255 and once per app", () =>
    Effect.gen(function*() {
      const app = yield* importingApp
      const emails = (n: number) => Array.from({ length: n }, (_, i) => `m${i}@limits.example`).join(";")
      const phones = (n: number) => Array.from({ length: n }, (_, i) => `+1415555${String(1000 + i)}`).join(";")
      const items = (n: number) => Array.from({ length: n }, (_, i) => `t${i}`).join(";")
      const csv = [
        "external_id,email,phone,notes,tags[]",
        `ok-1,${emails(10)},${phones(10)},${"n".repeat(8192)},${items(50)}`,
        `,big@limits.example,,${"n".repeat(8193)},`,
        `,list@limits.example,,,${items(51)}`,
        `,${emails(11)},,,`,
        `,,${phones(11)},,`,
        `${"x".repeat(256)},long@limits.example,,,`,
        `ok-1,again@limits.example,,,`
      ].join("\n")
      const job = expectCreated(yield* app.send(csv))
      expect(job).toMatchObject({ rows_read: 7, rows_imported: 1, rows_failed: 6 })
      const errors = yield* app.errorsOf(job.import_id)
      expect(errors.map((e) => [e.line, e.column, e.code])).toEqual([
        [3, "notes", "value_too_long"],
        [4, "tags[]", "too_many_items"],
        [5, "email", "too_many_emails"],
        [6, "phone", "too_many_phones"],
        [7, "external_id", "external_id_too_long"],
        [8, "external_id", "external_id_exists"]
      ])
      // The same external id in a later file is refused too: sending a file again does not duplicate anyone.
      const again = expectCreated(yield* app.send("external_id,email\nok-1,m0@limits.example\n"))
      expect(again).toMatchObject({ rows_imported: 0, rows_failed: 1 })
    }))

  it.effect("the header: at most 200 columns, names of at most 200 bytes, an email or phone column", () =>
    Effect.gen(function*() {
      const app = yield* importingApp
      const columns = ["email", ...Array.from({ length: 200 }, (_, i) => `c${i}`)].join(",")
      const wide = yield* app.send(`${columns}\n`)
      expect(wide.status).toBe(422)
      expect(wide.body.error).toMatchObject({ code: "invalid_import_header", details: { columns: { columns: "at most 200 columns, got 201" } } })
      const named = yield* app.send(`email,${"é".repeat(101)}\n`)
      expect(named.status).toBe(422)
      expect(named.body.error.details.columns).toEqual({ "column 2": "name longer than 200 bytes" })
      const contactless = yield* app.send("display_name\nAda\n")
      expect(contactless.body.error.details.columns).toEqual({ email: "an email or a phone column is required" })
      const empty = yield* app.send("")
      expect(empty.body.error.code).toBe("invalid_import_header")
      // None of these started a job.
      expect((yield* app.get("/imports")).body.items).toEqual([])
    }))

  it.effect("an unknown import id is 404 import_not_found, for its job and its errors", () =>
    Effect.gen(function*() {
      const app = yield* importingApp
      for (const path of ["/imports/imp_unknown", "/imports/imp_unknown/errors"]) {
        const answer = yield* app.get(path)
        expect([answer.status, answer.body.error.code]).toEqual([404, "import_not_found"])
      }
    }))

  it.effect("a body that breaks off after its header is 422 invalid_csv; the job failed with it", () =>
    Effect.gen(function*() {
      const app = yield* importingApp
      const broken = gate()
      async function* breaksOff() {
        yield "external_id,email\nx-1,one@broken.example\n"
        await broken.opened
        throw new Error("connection reset")
      }
      const fiber = yield* Effect.fork(importOf(app.appId, breaksOff()))
      yield* untilJob(app, (job) => job.status === "running")
      broken.open()
      const refused = yield* Effect.flip(Fiber.join(fiber))
      expect(refused).toMatchObject({ code: "invalid_csv", status: 422 })
      yield* untilJob(app, (job) => job.status === "failed")
      expect((yield* app.get("/imports")).body.items[0]).toMatchObject({ status: "failed", error: { code: "invalid_csv" } })
    }))

  it.effect("a request that ends while its file is read leaves the job failed with error interrupted", () =>
    Effect.gen(function*() {
      const app = yield* importingApp
      const never = gate()
      async function* stalls() {
        yield "external_id,email\nx-1,one@stalled.example\n"
        await never.opened
      }
      const fiber = yield* Effect.fork(importOf(app.appId, stalls()))
      yield* untilJob(app, (job) => job.status === "running")
      yield* Fiber.interrupt(fiber)
      const job = yield* untilJob(app, (job) => job.status === "failed")
      expect(job.error).toEqual({ code: "interrupted", message: "The request ended before the file was read." })
    }))

  it.effect("a file over 100,000 rows stops there: 422 too_many_rows, the job failed", () =>
    Effect.gen(function*() {
      const app = yield* importingApp
      async function* contactless() {
        yield "email,display_name\n"
        for (let start = 0; start <= 100_000; start += 5000) yield ",x\n".repeat(Math.min(5000, 100_001 - start))
      }
      const answer = yield* app.send(contactless())
      expect(answer.status).toBe(422)
      expect(answer.body.error).toMatchObject({ code: "too_many_rows", details: { limit_rows: 100_000 } })
      const job = (yield* app.get(`/imports/${answer.body.error.details.import_id}`)).body
      expect(job).toMatchObject({ status: "failed", rows_read: 100_000, rows_failed: 100_000, error: { code: "too_many_rows" } })
    }))

  it.effect("a body over 50 MB is refused: declared, before a byte is read; streamed, where it passes the limit", () =>
    Effect.gen(function*() {
      const app = yield* importingApp
      const declared = yield* app.send("email\n", { "content-length": String(50 * 1024 * 1024 + 1) })
      expect(declared.status).toBe(413)
      expect(declared.body.error).toMatchObject({ code: "payload_too_large", details: { limit_bytes: 52_428_800 } })
      async function* huge() {
        yield "email,notes\n"
        const row = `,${"n".repeat(8000)}\n`.repeat(64)
        for (let sent = 0; sent < 51 * 1024 * 1024; sent += row.length) yield row
      }
      const streamed = yield* app.send(huge())
      expect(streamed.status).toBe(413)
      const job = (yield* app.get("/imports")).body.items[0]
      expect(job).toMatchObject({ status: "failed", error: { code: "payload_too_large" } })
      expect(job.bytes_read).toBeLessThanOrEqual(50 * 1024 * 1024)
    }))

  it.effect("60 requests per hour and 2,000,000 rows per 24 hours per app: 429 rate_limited", () =>
    Effect.gen(function*() {
      const limiter = yield* RateLimiter
      const requests = yield* importingApp
      yield* limiter.hit({ key: `imports:${requests.appId}`, limit: 60, windowSeconds: 3600, cost: 60 }).pipe(Effect.orDie)
      const refused = yield* requests.send("email\na@rate.example\n")
      expect(refused.status).toBe(429)
      expect(refused.body.error.message).toContain("60 per hour per app")
      expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0)

      const rows = yield* importingApp
      yield* limiter.hit({ key: `import_rows:${rows.appId}`, limit: 2_000_000, windowSeconds: 86_400, cost: 1_999_999 }).pipe(Effect.orDie)
      const tooMany = yield* rows.send("email\na@rate.example\nb@rate.example\n")
      expect(tooMany.status).toBe(429)
      expect(tooMany.body.error.message).toContain("2000000 per 24 hours per app")
      expect((yield* rows.get("/imports")).body.items[0]).toMatchObject({ status: "failed", rows_imported: 0, error: { code: "rate_limited" } })
    }))
})

layer(AccountsTest({ importWaitSeconds: 1, importTimeBudgetSeconds: 2 }), { excludeTestServices: true })(
  "CSV imports: parse slots and the time budget",
  (it) => {
    /** A body that sends its header and one row, then stalls until the gate opens. */
    async function* stalled(until: Promise<void>, email: string) {
      yield `email\n${email}\n`
      await until
    }

    it.effect("a third import at once waits for a slot, then 503 imports_busy with Retry-After 15", () =>
      Effect.gen(function*() {
        const first = yield* importingApp
        const second = yield* importingApp
        const third = yield* importingApp
        const held = gate()
        const a = yield* Effect.fork(first.send(stalled(held.opened, "a@busy.example")))
        const b = yield* Effect.fork(second.send(stalled(held.opened, "b@busy.example")))
        // Both hold a slot once their jobs exist.
        yield* untilJob(first, (job) => job.status === "running")
        yield* untilJob(second, (job) => job.status === "running")
        const busy = yield* third.send("email\nc@busy.example\n")
        expect(busy.status).toBe(503)
        expect(busy.headers["retry-after"]).toBe("15")
        expect(busy.body.error).toMatchObject({ code: "imports_busy", details: { retry_after_seconds: 15 } })
        held.open()
        expectCreated(yield* a.await.pipe(Effect.flatten))
        expectCreated(yield* b.await.pipe(Effect.flatten))
        // With a slot free again, the third goes through.
        expectCreated(yield* third.send("email\nc@busy.example\n"))
      }))

    it.effect("an import past its time budget ends with 503 request_timeout, and its job says so", () =>
      Effect.gen(function*() {
        const app = yield* importingApp
        const held = gate()
        const answer = yield* app.send(stalled(held.opened, "slow@budget.example"))
        held.open()
        expect(answer.status).toBe(503)
        expect(answer.body.error).toMatchObject({ code: "request_timeout", details: { limit_seconds: 2 } })
        const job = (yield* app.get(`/imports/${answer.body.error.details.import_id}`)).body
        expect(job).toMatchObject({ status: "failed", error: { code: "request_timeout" } })
      }))
  }
)

/** The imported account of `externalId` and its membership with the importing app. */
const importedAccount = (appId: string, externalId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ account_uuid: string; status: string }>`
      SELECT ia.account_uuid, m.status FROM imported_accounts ia
      JOIN memberships m ON m.app_id = ia.app_id AND m.account_uuid = ia.account_uuid
      WHERE ia.app_id = ${appId} AND ia.external_id = ${externalId}
    `).pipe(Effect.orDie, Effect.map((rows) => rows[0]!))

/** A new flow of `appId` (scope openid) in which the browser proves `address` by the code the test mailbox received. */
const proveAddress = (appId: string, channel: "email" | "phone", address: string) =>
  Effect.gen(function*() {
    const b = yield* browser
    const flowId: string = (yield* startFlow(b, appId)).body.flow.id
    const sent = yield* run(() => b.post(`/v1/flows/${flowId}/code`, { channel, destination: address }))
    expect(sent.status, JSON.stringify(sent.body)).toBe(200)
    const verified = yield* verifyCode(b, flowId, address)
    expect(verified.status, JSON.stringify(verified.body)).toBe(200)
    return { b, flow: verified.body.flow }
  })

layer(AccountsTest(), { excludeTestServices: true })("CSV imports: finishing an import", (it) => {
  it.effect.each([
    { channel: "email", address: "ada@claim.example", other: "bob@claim.example" },
    { channel: "phone", address: "+14155550177", other: "+14155550178" }
  ] as const)("a sign-up with an imported $channel finishes the import: same uuid, membership active, one fewer unclaimed", ({ address, channel, other }) =>
    Effect.gen(function*() {
      const app = yield* importingApp
      if (channel === "phone") yield* setSigninConfig(app.appId, ["methods", "phone"], true)
      expectCreated(yield* app.send(`external_id,${channel},display_name\nada-1,${address},Ada Imported\nbob-1,${other},Bob\n`))
      const imported = yield* importedAccount(app.appId, "ada-1")
      expect(imported.status).toBe("imported")
      expect((yield* app.get("")).body.stats).toMatchObject({ users: 2, imported_unclaimed: 2 })

      const { b, flow } = yield* proveAddress(app.appId, channel, address)
      // An unverified imported address signs nobody in: the person signs up, and that finishes the import.
      expect(flow).toMatchObject({
        step: "signup",
        signed_in_as: null,
        signup: { finishing_import: true, imported_by: { app_id: app.appId, name: "Flow App" }, display_name: "Ada Imported" }
      })
      expect(b.cookies.has("sa_session")).toBe(false)

      const done = yield* run(() => b.post(`/v1/flows/${flow.id}/signup`, { display_name: "Ada Lovelace" }))
      expect(done.status, JSON.stringify(done.body)).toBe(200)
      expect(done.body.flow).toMatchObject({ step: "complete", signed_in_as: { kind: "carbon", display_name: "Ada Lovelace" } })
      expect(yield* accountOfCode(done.body.flow.redirect_to)).toBe(imported.account_uuid)
      expect(yield* importedAccount(app.appId, "ada-1")).toEqual({ account_uuid: imported.account_uuid, status: "active" })
      expect((yield* app.get("")).body.stats).toMatchObject({ users: 2, imported_unclaimed: 1 })
    }))

  it.effect("an imported email verified on another account signs that account in; the imported account stays unclaimed", () =>
    Effect.gen(function*() {
      const owner = yield* createCarbon({ email: "owner@claim.example" })
      const app = yield* importingApp
      expectCreated(yield* app.send("external_id,email\nowner-1,owner@claim.example\n"))
      const { flow } = yield* proveAddress(app.appId, "email", "owner@claim.example")
      expect(flow).toMatchObject({ step: "complete", signup: null })
      expect(yield* accountOfCode(flow.redirect_to)).toBe(owner.uuid)
      expect((yield* importedAccount(app.appId, "owner-1")).status).toBe("imported")
      expect((yield* app.get("")).body.stats).toMatchObject({ imported_unclaimed: 1 })
    }))
})
