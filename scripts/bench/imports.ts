/**
 * `npm run bench:imports`: one CSV import of 100,000 generated rows (BENCH_IMPORT_ROWS to change it)
 * streamed to POST /v1/apps/{app_id}/imports; reports rows per second and the server's peak resident
 * memory (VmHWM of its process, database included when embedded). Our server runs as `npm start` runs
 * it, on ACCOUNTS_DATABASE_URL (or TEST_DATABASE_URL) when set, else on a fresh embedded database.
 * Writes the figures to apps/accounts/docs/benchmarks.md.
 */
import { randomHex } from "@platform/crypto"
import { Effect, Option } from "effect"
import { mkdtempSync, readFileSync } from "node:fs"
import { request } from "node:http"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { AccountsRepo } from "../../apps/accounts/src/accounts/AccountsRepo.ts"
import { AppsRepo } from "../../apps/accounts/src/apps/AppsRepo.ts"
import { createFakeApp } from "../../apps/accounts/src/apps/FakeApps.ts"
import { databaseUrl, root } from "./lineup.ts"
import { ourDatabase } from "./ourDatabase.ts"
import { machine, writeSection } from "./report.ts"
import { startServer, stopServer } from "./servers/spawn.ts"

const rows = Number(process.env["BENCH_IMPORT_ROWS"] ?? 100_000)
const port = 4194
const work = mkdtempSync(join(tmpdir(), "bench-imports-"))
const dataDir = join(work, "accounts")
const base = `http://127.0.0.1:${port}`
const loadBefore = loadavg().map((l) => l.toFixed(1)).join(", ")

const server = await startServer(join(root, "apps/accounts/src/main.ts"), {
  ACCOUNTS_PORT: String(port),
  ACCOUNTS_DATA_DIR: dataDir,
  ...(databaseUrl === undefined ? {} : { ACCOUNTS_DATABASE_URL: databaseUrl })
}, `${base}/readyz`)

/** Peak resident memory of a process so far, in MB (Linux). */
const peakMb = (pid: number): number => {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((l) => l.startsWith("VmHWM:"))
  return Math.round(Number(line?.split(/\s+/)[1] ?? 0) / 1024)
}

const appId = `b${randomHex(8)}`
const { secret } = await Effect.runPromise(
  createFakeApp({ appId, name: "Bench importer", redirectUris: ["https://bench.example.test/cb"], owner: Option.none(), scopeFields: [] }).pipe(
    Effect.orDie,
    Effect.provide([AccountsRepo.Default, AppsRepo.Default]),
    Effect.provide(ourDatabase(dataDir)),
    Effect.scoped
  )
)

/** Streams the generated file, 1,000 rows a chunk, honouring backpressure. */
const importRows = (): Promise<{ status: number; body: string }> =>
  new Promise((resolve, reject) => {
    const outgoing = request(`${base}/v1/apps/${appId}/imports`, {
      method: "POST",
      agent: false,
      headers: { "content-type": "text/csv", authorization: `Basic ${Buffer.from(`${appId}:${secret}`).toString("base64")}` }
    }, (response) => {
      const chunks: Array<Buffer> = []
      response.on("data", (chunk: Buffer) => chunks.push(chunk))
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }))
    })
    outgoing.on("error", reject)
    const write = async () => {
      outgoing.write("external_id,email,display_name,tags[]\n")
      for (let start = 0; start < rows; start += 1000) {
        let chunk = ""
        for (let i = start; i < Math.min(start + 1000, rows); i++) chunk += `ext-${i},person${i}@bench.example,Person ${i},a;b\n`
        if (!outgoing.write(chunk)) await new Promise((drained) => outgoing.once("drain", drained))
      }
      outgoing.end()
    }
    write().catch(reject)
  })

let seconds: number
let peak: number
const before = peakMb(server.pid!)
try {
  const started = performance.now()
  const answer = await importRows()
  seconds = (performance.now() - started) / 1000
  if (answer.status !== 201) throw new Error(`import: ${answer.status} ${answer.body}`)
  peak = peakMb(server.pid!)
  process.stdout.write(`${rows} rows in ${seconds.toFixed(1)} s: ${Math.round(rows / seconds)} rows/s; server peak RSS ${peak} MB (${before} MB before)\n`)
} finally {
  await stopServer(server)
}

writeSection(
  join(root, "apps/accounts/docs/benchmarks.md"),
  "imports",
  `## CSV imports (\`npm run bench:imports\`)

Measured ${new Date().toISOString().slice(0, 10)} on ${machine()} (load average before the run: ${loadBefore}); database: ${
    databaseUrl ? "PostgreSQL server" : "embedded PGlite (in the server's process)"
  }. One import of ${rows} generated rows (external_id, email, display_name and a two-item list), streamed in 1,000-row chunks.

| rows | seconds | rows/s | server peak RSS MB | before the import MB |
| --- | --- | --- | --- | --- |
| ${rows} | ${seconds.toFixed(1)} | ${Math.round(rows / seconds)} | ${peak} | ${before} |

Each 1,000-row batch is one transaction of multi-row statements (accounts, emails, memberships, imported_accounts, job counters).`
)
process.stdout.write(`written to apps/accounts/docs/benchmarks.md\n`)
