/**
 * `npm run bench:webhooks`: accounts' event delivery on the PostgreSQL server at
 * ACCOUNTS_DATABASE_URL or TEST_DATABASE_URL (a fresh database, dropped at the end).
 * - Webhooks: deliveries per second from one accounts process, and from two, to a loopback
 *   receiver in this process (answering 200 at once), for a burst of queued deliveries; and the
 *   delay from a delivery's commit to its first attempt at the receiver (p50, p99), one at a time.
 * - Event stream: 500 open SSE streams on one server (100 apps, 5 each), the server's resident
 *   memory per open stream, and the delay from an event's commit to its frame (p50, p99).
 * Baseline in the same run: the receiver's own capacity (a bare node:http POST loop against it).
 * Writes apps/accounts/docs/benchmarks.md's "webhooks" section.
 */
import { type ChildProcess, execFile } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { createServer, request } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import Pg from "pg"
import { databaseUrl, root } from "./lineup.ts"
import { machine, writeSection } from "./report.ts"
import { createScratchDatabase } from "./scratchDatabase.ts"
import { startServer, stopServer } from "./servers/spawn.ts"

const BURST = Number(process.env["BENCH_WEBHOOK_BURST"] ?? 5000)
const LATENCY_SAMPLES = 200
const STREAMS = 500
const STREAM_APPS = STREAMS / 5

if (databaseUrl === undefined) {
  process.stderr.write("bench:webhooks needs PostgreSQL: set ACCOUNTS_DATABASE_URL or TEST_DATABASE_URL\n")
  process.exit(1)
}
const database = await createScratchDatabase(databaseUrl, "bench_webhooks")
const work = mkdtempSync(join(tmpdir(), "bench-webhooks-"))
const env = (port: number) => ({
  ACCOUNTS_PORT: String(port),
  ACCOUNTS_DATA_DIR: join(work, "accounts"),
  ACCOUNTS_DATABASE_URL: database.url,
  ACCOUNTS_WEBHOOK_ALLOW_LOOPBACK: "true"
})
const memoryFile = join(work, "memory.json")
/** Accounts as `npm start` runs it, with the memory probe (scripts/bench/servers/memoryProbe.ts). */
const startAccounts = (port: number) =>
  startServer(join(root, "scripts/bench/servers/memoryProbe.ts"), {
    ...env(port),
    BENCH_PROBED_SCRIPT: join(root, "apps/accounts/src/main.ts"),
    BENCH_MEMORY_FILE: memoryFile
  }, `http://127.0.0.1:${port}/readyz`)

/** The server's memory after a full collection, in KB: heap in use plus memory outside the heap, and the resident set. */
const retainedKb = async (server: ChildProcess) => {
  rmSync(memoryFile, { force: true })
  server.kill("SIGUSR2")
  while (!existsSync(memoryFile)) await sleep(20)
  await sleep(20)
  const usage = JSON.parse(readFileSync(memoryFile, "utf8")) as NodeJS.MemoryUsage
  return { retained: (usage.heapUsed + usage.external) / 1024, resident: usage.rss / 1024 }
}

const sleep = (millis: number) => new Promise((resolve) => setTimeout(resolve, millis))
const percentile = (values: ReadonlyArray<number>, p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN
}

/** The loopback receiver: counts deliveries and notes when each event id first arrived. */
const arrivals = new Map<string, number>()
let received = 0
const receiver = createServer((req, res) => {
  const eventId = String(req.headers["x-accounts-event-id"])
  if (!arrivals.has(eventId)) arrivals.set(eventId, performance.now())
  received++
  req.resume()
  req.on("end", () => res.writeHead(200).end())
})
await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve))
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`

const db = new Pg.Client({ connectionString: database.url })
const servers: Array<ChildProcess> = []
const results: Record<string, string> = {}
const progress = (line: string) => process.stderr.write(`bench:webhooks: ${line}\n`)

const queueDeliveries = async (prefix: string, count: number) => {
  await db.query(
    `WITH queued AS (
       INSERT INTO webhook_deliveries (id, event_id, event_type, event_occurred_at, receiver, body, manual_replays,
                                       status, attempts, next_attempt_at, created_at)
       SELECT gen_random_uuid(), $1 || n, 'ping', now(), 'app:listener',
              json_build_object('event_id', $1 || n, 'type', 'ping', 'data', json_build_object())::text, 0, 'pending', 0, now(), now()
       FROM generate_series(1, $2::int) AS n
       RETURNING 1
     )
     SELECT pg_notify('queue_webhook_deliveries', 'wake') FROM queued LIMIT 1`,
    [prefix, count]
  )
}

const burst = async (label: string) => {
  const before = received
  const started = performance.now()
  await queueDeliveries(`evt_${label}_`, BURST)
  while (received - before < BURST) {
    await sleep(5)
    if (performance.now() - started > 120_000) throw new Error(`burst ${label}: ${received - before} of ${BURST} after 2 minutes`)
  }
  const seconds = (performance.now() - started) / 1000
  return BURST / seconds
}

const commitToAttempt = async () => {
  const delays: Array<number> = []
  for (let i = 0; i < LATENCY_SAMPLES; i++) {
    const eventId = `evt_latency_${i}`
    const committed = performance.now()
    await queueDeliveries(`evt_latency_${i}_`, 1)
    while (!arrivals.has(`${eventId}_1`)) await sleep(1)
    delays.push((arrivals.get(`${eventId}_1`) ?? committed) - committed)
    await sleep(20)
  }
  return { p50: percentile(delays, 50), p99: percentile(delays, 99) }
}

/** The receiver's capacity on its own: sequential POSTs on 10 fresh connections at once, as the worker sends them. */
const receiverBaseline = async () => {
  const count = 5000
  const started = performance.now()
  let next = 0
  const post = () =>
    new Promise<void>((resolve, reject) => {
      const req = request(receiverUrl, { method: "POST", agent: false, headers: { "x-accounts-event-id": "baseline" } }, (res) => {
        res.resume()
        res.on("end", resolve)
      })
      req.on("error", reject)
      req.end("{}")
    })
  await Promise.all(Array.from({ length: 10 }, async () => {
    while (next++ < count) await post()
  }))
  return count / ((performance.now() - started) / 1000)
}


try {
  await db.connect()
  const first = await startAccounts(4191)
  servers.push(first)
  const cli = (args: Array<string>) =>
    promisify(execFile)(process.execPath, ["--import", "tsx", "apps/accounts/src/cli.ts", ...args], {
      cwd: root,
      env: { ...process.env, ...env(4191) }
    })
  await cli(["carbons", "create", "--email", "bench@example.com", "--id", "c:benchowner", "--display-name", "Bench"])
  const created = await cli([
    "apps",
    "create",
    "--app-id",
    "listener",
    "--name",
    "Listener",
    "--redirect-uri",
    "https://listener.example.com/cb",
    "--owner",
    "c:benchowner"
  ])
  const secret = (JSON.parse(created.stdout) as { app_secret: string }).app_secret
  const basic = (appId: string) => `Basic ${Buffer.from(`${appId}:${secret}`).toString("base64")}`
  const set = await fetch("http://127.0.0.1:4191/v1/apps/listener/webhook", {
    method: "PUT",
    headers: { authorization: basic("listener"), "content-type": "application/json" },
    body: JSON.stringify({ url: receiverUrl })
  })
  if (set.status !== 200) throw new Error(`PUT webhook: ${set.status} ${await set.text()}`)

  progress("webhook set; measuring the receiver alone")
  results["baseline"] = `${Math.round(await receiverBaseline())}`
  progress(`receiver alone: ${results["baseline"]}/s; bursts`)
  await burst("warmup")
  results["one"] = `${Math.round(await burst("one"))}`
  progress(`one process: ${results["one"]}/s; commit to attempt`)
  const latency = await commitToAttempt()
  results["latency"] = `p50 ${latency.p50.toFixed(1)} ms, p99 ${latency.p99.toFixed(1)} ms`
  const second = await startAccounts(4192)
  servers.push(second)
  results["two"] = `${Math.round(await burst("two"))}`
  await stopServer(second)

  progress(`two processes: ${results["two"]}/s; streams`)
  // Streams: 100 apps sharing the listener's secret, 5 streams each, on the first server.
  await db.query(
    `INSERT INTO apps (app_id, name, status, source, secret_hash, signin_config, config_version, created_at, updated_at)
     SELECT 'stream' || n, 'Stream ' || n, status, source, secret_hash, signin_config, config_version, now(), now()
     FROM apps, generate_series(1, $1::int) AS n WHERE app_id = 'listener'`,
    [STREAM_APPS]
  )
  const frames = new Map<string, number>()
  const openStreams = (count: number) =>
    Promise.all(Array.from({ length: count }, (_, i) =>
      new Promise<() => void>((resolve, reject) => {
        const appId = `stream${(i % STREAM_APPS) + 1}`
        const req = request("http://127.0.0.1:4191/v1/events/stream", {
          agent: false,
          headers: { authorization: basic(appId), accept: "text/event-stream" }
        }, (res) => {
          if (res.statusCode !== 200) return reject(new Error(`stream ${i}: ${res.statusCode}`))
          res.setEncoding("utf8")
          res.on("data", (chunk: string) => {
            for (const match of chunk.matchAll(/"event_id":\s*"(evt_frame_\d+)"/g)) {
              if (!frames.has(match[1]!)) frames.set(match[1]!, performance.now())
            }
          })
          resolve(() => req.destroy())
        })
        req.on("error", reject)
        req.end()
      })
    ))
  // A few streams opened and closed first, so that the code they run is compiled before the measure.
  for (const close of await openStreams(20)) close()
  await sleep(3000)
  const idle = await retainedKb(first)
  const open = await openStreams(STREAMS)
  await sleep(3000)
  const withStreams = await retainedKb(first)
  const perStream = (key: "retained" | "resident") => ((withStreams[key] - idle[key]) / STREAMS).toFixed(1)
  results["memory"] = `${perStream("retained")} KB per stream retained (heap and external after a full collection, ` +
    `${Math.round(idle.retained / 1024)} → ${Math.round(withStreams.retained / 1024)} MB); resident set ${perStream("resident")} KB per stream`

  progress(`streams open: ${results["memory"]}; commit to frame`)
  const { rows: [account] } = await db.query<{ uuid: string }>("SELECT uuid FROM accounts WHERE handle = 'benchowner'")
  const delays: Array<number> = []
  for (let i = 0; i < 50; i++) {
    const eventId = `evt_frame_${i}`
    const committed = performance.now()
    await db.query(
      `WITH source AS (
         INSERT INTO account_events (id, type, account_uuid, occurred_at, data)
         VALUES ($1, 'account.updated', $2, now(), '{}') RETURNING id
       )
       INSERT INTO event_feed (event_id, source_event_id, receiver, type, occurred_at, body, stream)
       SELECT $1, id, 'app:stream1', 'account.updated', now(),
              json_build_object('event_id', $1::text, 'type', 'account.updated', 'data', json_build_object()), true
       FROM source`,
      [eventId, account?.uuid]
    )
    while (!frames.has(eventId)) await sleep(2)
    delays.push((frames.get(eventId) ?? committed) - committed)
    // A random pause: events committed at a fixed distance after a frame would all wait the same part of a tick.
    await sleep(100 + Math.random() * 1000)
  }
  results["frame"] = `p50 ${percentile(delays, 50).toFixed(0)} ms, p99 ${percentile(delays, 99).toFixed(0)} ms`
  for (const close of open) close()
} finally {
  for (const server of servers) await stopServer(server)
  await db.end().catch(() => {})
  receiver.close()
  await database.drop()
}

process.stdout.write(`${JSON.stringify(results, null, 2)}\n`)
writeSection(
  join(root, "apps/accounts/docs/benchmarks.md"),
  "webhooks",
  `## Webhooks and the event stream (\`npm run bench:webhooks\`)

Measured ${new Date().toISOString().slice(0, 10)} on ${machine()}; accounts on PostgreSQL on the same machine, pinned to core 1, the receiver and
load in this process on core 0. A burst of ${BURST} queued deliveries to one app's webhook on a loopback receiver that answers 200 at once.

| what | figure | target |
| --- | --- | --- |
| receiver alone (bare node:http, 10 senders, a connection per POST) | ${results["baseline"]} POST/s | – |
| deliveries per second, one process | ${results["one"]} | ≥ 2,000 |
| deliveries per second, two processes on one database | ${results["two"]} | – |
| commit to first attempt, one delivery at a time (${LATENCY_SAMPLES} samples) | ${results["latency"]} | p50 < 50 ms |
| memory per open stream, ${STREAMS} streams on one server | ${results["memory"]} | < 50 KB |
| commit to frame on an open stream (50 samples at random moments; the streams look every second) | ${results["frame"]} | – |

Notes. Both processes of the two-process row are pinned to core 1 with the PostgreSQL server's share of it (scripts/bench/servers/spawn.ts pins every server there), so that row measures contention for one core, not scaling. The receiver baseline opens a connection per POST; the worker keeps its connections, which is why one process can pass it. Memory per stream is what the server retains: its heap in use plus memory outside the heap, each read after a full garbage collection (scripts/bench/servers/memoryProbe.ts, on a signal) before and 3 s after opening the streams, divided by their number; the resident set is shown beside it, but it moves with garbage not yet collected (an earlier method that read only the resident set gave 59 to 194 KB under load). Streams wait on one ticker per process and read in one statement per tick for all of them.
`
)
