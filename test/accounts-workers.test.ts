import type { SpawnedService } from "@platform/testkit"
import { mkdtempSync } from "node:fs"
import { request } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { codesFor, provisionedDatabase, reportAcrossSigterm, runAccountsCli, startAccounts } from "./support/accountsProcess.ts"

interface Answer {
  readonly status: number
  readonly body: string
}

/**
 * A POST on a connection of its own: the primary hands each new connection to the next worker
 * in turn, so that requests sent this way are spread over the workers.
 */
const postAlone = (url: string, body: unknown, headers: Record<string, string>) =>
  new Promise<Answer>((resolve, reject) => {
    const req = request(url, { method: "POST", agent: false, headers: { "content-type": "application/json", ...headers } }, (res) => {
      let text = ""
      res.on("data", (chunk: Buffer) => (text += chunk.toString()))
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }))
    })
    req.on("error", reject)
    req.end(JSON.stringify(body))
  })

interface LogLine {
  readonly event?: string
  readonly request_id?: string
  readonly worker?: number
  readonly pid?: number
  readonly code?: number | null
  readonly signal?: string | null
}

const logLines = (service: SpawnedService): Array<LogLine> =>
  service.output().split("\n").filter((line) => line.startsWith("{")).map((line) => JSON.parse(line) as LogLine)

/** The workers whose request log lines carry these request ids. */
const workersServing = (service: SpawnedService, requestIds: ReadonlyArray<string>): Array<number> => {
  const wanted = new Set(requestIds)
  const workers = logLines(service)
    .filter((line) => line.event === "request" && line.request_id !== undefined && wanted.has(line.request_id))
    .map((line) => line.worker ?? 0)
  return [...new Set(workers)].sort()
}

const started = (service: SpawnedService) => logLines(service).filter((line) => line.event === "worker_started")

/** Ready answers once worker 1 listens; worker 2 starts after it, and the primary says when all listen. */
const allListening = (service: SpawnedService) =>
  vi.waitFor(() => expect(logLines(service).some((line) => line.event === "workers_listening")).toBe(true), {
    timeout: 120_000,
    interval: 100
  })

// Without TEST_DATABASE_URL the database is the embedded one served over TCP by this test process: the
// workers then reach it as any PostgreSQL client does, one connection each.
describe("accounts with ACCOUNTS_WORKERS=2: two processes behind one port, on one database", () => {
  let database: Awaited<ReturnType<typeof provisionedDatabase>>
  let service: SpawnedService
  const dataDir = mkdtempSync(join(tmpdir(), "accounts-workers-"))
  let env: Record<string, string>

  beforeAll(async () => {
    database = await provisionedDatabase()
    env = { ACCOUNTS_DATABASE_URL: database.url, ACCOUNTS_DATA_DIR: dataDir, ACCOUNTS_TRUST_PROXY: "true" }
    service = await startAccounts({ ...env, ACCOUNTS_WORKERS: "2" })
    await allListening(service)
  }, 300_000)

  afterAll(async () => {
    await service?.stop()
    await database?.close()
  })

  it("requests reach both workers, and a rate limit counts requests across them", async () => {
    const ids = Array.from({ length: 6 }, (_, i) => `workers-rate-${i}`)
    const statuses: Array<number> = []
    for (const id of ids) {
      const answer = await postAlone(`${service.url}/v1/reports`, { message: "from one network" }, {
        "x-forwarded-for": "192.0.2.61",
        "x-request-id": id
      })
      statuses.push(answer.status)
    }
    // Five reports a window per network, wherever they land.
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429])
    await expect.poll(() => workersServing(service, ids)).toEqual([1, 2])
  }, 60_000)

  it("20 parallel uses of one sign-in code, spread over both workers: exactly one signs in", async () => {
    const email = "parallel@example.com"
    await runAccountsCli(["carbons", "create", "--email", email, "--id", "c:parallel", "--display-name", "Parallel"], env)
    const start = await postAlone(`${service.url}/v1/cli/login/start`, { email }, { "x-forwarded-for": "198.51.100.60" })
    expect(start.status).toBe(200)
    const { challenge_id } = JSON.parse(start.body) as { challenge_id: string }
    await expect.poll(() => codesFor(dataDir, email).length, { timeout: 60_000 }).toBe(1)
    const code = codesFor(dataDir, email)[0]

    const ids = Array.from({ length: 20 }, (_, i) => `workers-code-${i}`)
    const answers = await Promise.all(ids.map((id, i) =>
      postAlone(`${service.url}/v1/cli/login/verify`, { challenge_id, code, client_label: `terminal ${i}` }, {
        // Each from a network of its own: the per-network limits stay out of the way.
        "x-forwarded-for": `198.51.100.${i + 1}`,
        "x-request-id": id
      })
    ))
    const statuses = answers.map((answer) => answer.status)
    expect(statuses.filter((status) => status === 200)).toHaveLength(1)
    expect(statuses.filter((status) => status >= 400 && status < 500)).toHaveLength(19)
    await expect.poll(() => workersServing(service, ids)).toEqual([1, 2])
  }, 120_000)

  it("a worker that dies is restarted under the same number, and the port keeps answering", async () => {
    const before = started(service).filter((line) => line.worker === 2)
    const pid = before.at(-1)?.pid
    expect(pid).toBeTypeOf("number")
    process.kill(pid ?? 0, "SIGKILL")
    await expect.poll(() => logLines(service).some((line) => line.event === "worker_exited" && line.pid === pid), {
      timeout: 10_000
    }).toBe(true)
    expect(logLines(service).find((line) => line.event === "worker_exited" && line.pid === pid)?.signal).toBe("SIGKILL")
    // Meanwhile worker 1 answers alone.
    expect((await fetch(`${service.url}/readyz`)).status).toBe(200)
    await expect.poll(() => started(service).filter((line) => line.worker === 2).length, { timeout: 120_000 })
      .toBe(before.length + 1)
    expect(started(service).filter((line) => line.worker === 2).at(-1)?.pid).not.toBe(pid)
  }, 180_000)

  it("a second SIGTERM, while a request holds the drain, kills the worker still draining", async () => {
    // Another primary on the same database, with a drain deadline no test waits for.
    const other = await startAccounts({ ...env, ACCOUNTS_WORKERS: "2", ACCOUNTS_DRAIN_SECONDS: "300" })
    try {
      await allListening(other)
      const workers = new Set(started(other).map((line) => line.pid))
      // A request whose body never ends keeps its worker draining. Node's server answers `100 Continue` as it
      // hands the request to the app, so once the client hears it the request is in flight (a connection merely
      // open could still be refused by the drain).
      const held = request(`${other.url}/v1/reports`, {
        method: "POST",
        agent: false,
        headers: { "content-type": "application/json", expect: "100-continue" }
      })
      const heldAnswer = new Promise<string>((resolve) => {
        held.on("response", () => resolve("answered"))
        held.on("error", () => resolve("cut"))
      })
      const inFlight = new Promise((resolve) => held.once("continue", resolve))
      held.flushHeaders()
      await inFlight
      held.write("{\"message\":")
      other.process.kill("SIGTERM")
      // The idle worker drains and exits by itself: then the first signal has been taken (the second is not
      // merged with it), and the only worker left is the one holding the request.
      const idleExited = () =>
        logLines(other).some((line) => line.event === "worker_exited" && workers.has(line.pid) && line.code === 0)
      await vi.waitFor(() => expect(idleExited()).toBe(true), { timeout: 60_000, interval: 100 })
      other.process.kill("SIGTERM")
      expect(await other.exited).toBe(0)
      expect(await heldAnswer).toBe("cut")
      const exits = logLines(other).filter((line) => line.event === "worker_exited" && workers.has(line.pid))
      // The idle worker had drained and exited by itself; the one holding the request is killed.
      expect(exits.map((line) => line.signal ?? `exit ${line.code}`).sort()).toEqual(["SIGKILL", "exit 0"])
    } finally {
      await other.stop()
    }
  }, 180_000)

  it("SIGTERM lets a request in flight finish, stops both workers after draining, and the primary exits 0", async () => {
    const workers = new Set(started(service).map((line) => line.pid))
    expect(await reportAcrossSigterm(service)).toBe(201)
    expect(await service.exited).toBe(0)
    const exits = logLines(service).filter((line) => line.event === "worker_exited" && workers.has(line.pid))
    // The one killed above, and the two running ones, which exit on their own once drained.
    expect(exits.map((line) => line.code)).toEqual([null, 0, 0])
  }, 60_000)
})
