/**
 * `npm run bench:iam-webhooks`: IAM's webhook delivery on the PostgreSQL server at TEST_DATABASE_URL
 * (a fresh database, dropped at the end).
 * - Deliveries per second from one IAM process to a loopback receiver in this process that checks
 *   every request with `@platform/iam-webhook-verify` and answers 204, for a burst of queued deliveries.
 * - The receiver's side: verifications per second of `verifyIamWebhook` alone.
 * Baseline in the same run: the receiver's own capacity (a bare node:http POST loop against it).
 * Writes apps/iam/docs/benchmarks.md's "webhooks" section.
 */
import { verifyIamWebhook } from "@platform/iam-webhook-verify"
import { execFile } from "node:child_process"
import { createHmac } from "node:crypto"
import { mkdtempSync } from "node:fs"
import { createServer, request } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import Pg from "pg"
import { root } from "./lineup.ts"
import { machine, writeSection } from "./report.ts"
import { createScratchDatabase } from "./scratchDatabase.ts"
import { startServer, stopServer } from "./servers/spawn.ts"

const BURST = Number(process.env["BENCH_WEBHOOK_BURST"] ?? 3000)
const serverUrl = process.env["TEST_DATABASE_URL"] ?? process.env["IAM_DATABASE_URL"]
if (serverUrl === undefined) {
  process.stderr.write("bench:iam-webhooks needs PostgreSQL: set TEST_DATABASE_URL or IAM_DATABASE_URL\n")
  process.exit(1)
}
const progress = (line: string) => process.stderr.write(`bench:iam-webhooks: ${line}\n`)
const sleep = (millis: number) => new Promise((resolve) => setTimeout(resolve, millis))

const database = await createScratchDatabase(serverUrl, "bench_iam_webhooks")
const env = { IAM_PORT: "4291", IAM_DATA_DIR: mkdtempSync(join(tmpdir(), "bench-iam-webhooks-")), IAM_DATABASE_URL: database.url }

let secret = ""
let received = 0
let refused = 0
const receiver = createServer((req, res) => {
  const chunks: Array<Buffer> = []
  req.on("data", (chunk: Buffer) => chunks.push(chunk))
  req.on("end", () => {
    const verified = verifyIamWebhook({ headers: req.headers, rawBody: Buffer.concat(chunks), secrets: { "1": secret }, now: Date.now() })
    if (verified.ok) received++
    else refused++
    res.writeHead(verified.ok ? 204 : 401).end()
  })
})
await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve))
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/iam-hook`

/** The receiver's capacity on its own: POSTs on 10 fresh connections at once (each refused: no signature, same work). */
const receiverBaseline = async () => {
  const count = 5000
  const started = performance.now()
  let next = 0
  const post = () =>
    new Promise<void>((resolve, reject) => {
      const req = request(receiverUrl, { method: "POST", agent: false }, (res) => {
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

/** `verifyIamWebhook` alone on a 1 KB body, per second. */
const verificationsPerSecond = () => {
  const body = JSON.stringify({ id: "evt_x", type: "organization.updated.v1", data: { pad: "x".repeat(1000) } })
  const timestamp = String(Math.floor(Date.now() / 1000))
  const signature = `v1=${createHmac("sha256", "whsec_bench").update(`${timestamp}.${body}`).digest("hex")}`
  const headers = { "x-iam-event-id": "evt_x", "x-iam-timestamp": timestamp, "x-iam-key-version": "1", "x-iam-signature": signature }
  const count = 100_000
  const started = performance.now()
  for (let i = 0; i < count; i++) {
    if (!verifyIamWebhook({ headers, rawBody: body, secrets: { "1": "whsec_bench" }, now: Date.now() }).ok) throw new Error("not verified")
  }
  return count / ((performance.now() - started) / 1000)
}

const db = new Pg.Client({ connectionString: database.url })
const results: Record<string, number> = {}
try {
  const registered = await promisify(execFile)(
    process.execPath,
    ["--import", "tsx", "apps/iam/src/cli.ts", "applications", "register", "--app-id", "listener", "--name", "Listener",
      "--callback-url", "https://listener.example.com/cb", "--webhook-url", receiverUrl],
    { cwd: root, env: { ...process.env, ...env } }
  )
  secret = (JSON.parse(registered.stdout) as { webhook: { webhook_signing_secret: string } }).webhook.webhook_signing_secret
  await db.connect()
  const iam = await startServer(join(root, "apps/iam/src/main.ts"), env, `http://127.0.0.1:${env.IAM_PORT}/readyz`)
  try {
    progress("measuring the receiver alone")
    results["baseline"] = await receiverBaseline()
    refused = 0
    progress(`receiver alone: ${Math.round(results["baseline"])}/s; a burst of ${BURST}`)
    const started = performance.now()
    await db.query(
      `INSERT INTO iam_webhook_deliveries (id, event_id, event_type, event_occurred_at, receiver, body, manual_replays, key_version,
                                           status, attempts, next_attempt_at, created_at)
       SELECT gen_random_uuid(), 'evt_bench_' || n, 'organization.updated.v1', now(), 'app:listener',
              json_build_object('id', 'evt_bench_' || n, 'type', 'organization.updated.v1', 'data', json_build_object())::text,
              0, 1, 'pending', 0, now(), now()
       FROM generate_series(1, $1::int) AS n`,
      [BURST]
    )
    while (received < BURST) {
      await sleep(5)
      if (performance.now() - started > 300_000) throw new Error(`${received} of ${BURST} after 5 minutes`)
    }
    results["delivered"] = BURST / ((performance.now() - started) / 1000)
    if (refused > 0) throw new Error(`${refused} deliveries failed verification`)
  } finally {
    await stopServer(iam)
  }
  results["verify"] = verificationsPerSecond()
} finally {
  await db.end().catch(() => undefined)
  receiver.close()
  await database.drop()
}

const figure = (value: number | undefined) => Math.round(value ?? Number.NaN).toLocaleString("en-US")
writeSection(
  join(root, "apps/iam/docs/benchmarks.md"),
  "webhooks",
  `## Webhooks (\`npm run bench:iam-webhooks\`)

Measured ${new Date().toISOString().slice(0, 10)} on ${machine()}; IAM on PostgreSQL on the same machine, pinned to core 1, the
receiver and load in this process on core 0. A burst of ${BURST} queued deliveries to one application's webhook on a loopback
receiver that verifies every request with \`@platform/iam-webhook-verify\` (all verified) and answers 204.

| what | per second |
| --- | --- |
| IAM delivering, one process (signed, attempt recorded, delivery marked) | ${figure(results["delivered"])} deliveries |
| receiver alone (bare node:http, 10 senders, a connection per POST) | ${figure(results["baseline"])} POSTs |
| \`verifyIamWebhook\` alone (1 KB body, in process) | ${figure(results["verify"])} verifications |
`
)
progress(`delivered ${figure(results["delivered"])}/s, receiver alone ${figure(results["baseline"])}/s, verify ${figure(results["verify"])}/s`)
