/**
 * `npm run bench:workers`: the same server run as one process and as two workers
 * behind one port (ACCOUNTS_WORKERS=1, then 2), on a fresh database of the PostgreSQL
 * server at ACCOUNTS_DATABASE_URL or TEST_DATABASE_URL, dropped at the end (the
 * embedded database takes one process only). autocannon,
 * 50 connections, against the discovery document (answered from memory), GET /v1/meta
 * (a routed request with no query: the conventions, the dispatch, a compiled endpoint) and
 * GET /v1/me with a bearer (signature, sign-in lookup, account read). Writes req/s,
 * p50, p99 and the ratio to one worker to apps/accounts/docs/benchmarks.md.
 *
 * Unlike the other benchmarks the server is not pinned to core 1: two workers on one
 * core would measure nothing. The load generator keeps core 0 (scripts/bench/pinned),
 * so with two cores the second worker shares it with the load generator. A child
 * inherits its parent's CPU affinity, so the server is started with every core of the
 * machine allowed again (onCores); without that, every worker ran on the load
 * generator's core.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process"
import { existsSync, mkdtempSync, openSync, readFileSync } from "node:fs"
import { cpus, tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import type { LoadResult } from "./chainLoad.ts"
import { cannon, connections, databaseUrl, root, seconds } from "./lineup.ts"
import { machine, writeSection } from "./report.ts"
import { createScratchDatabase } from "./scratchDatabase.ts"
import { onCores } from "./servers/spawn.ts"

const port = 4189
const base = `http://127.0.0.1:${port}`
const work = mkdtempSync(join(tmpdir(), "bench-workers-"))
const dataDir = join(work, "accounts")
if (databaseUrl === undefined) {
  process.stderr.write("bench:workers needs PostgreSQL: set ACCOUNTS_DATABASE_URL or TEST_DATABASE_URL\n")
  process.exit(1)
}
const database = await createScratchDatabase(databaseUrl, "bench_workers")
const env = { ...process.env, ACCOUNTS_PORT: String(port), ACCOUNTS_DATA_DIR: dataDir, ACCOUNTS_DATABASE_URL: database.url }

/** Starts accounts with `workers` processes; resolves once every worker listens (the primary's log says so). */
const startAccounts = async (workers: number): Promise<ChildProcess> => {
  // The log goes to a file: read for readiness only, it costs the load generator nothing.
  const log = join(work, `accounts-${workers}.log`)
  const [command, ...args] = onCores(`0-${cpus().length - 1}`, [process.execPath, "--import", "tsx", join(root, "apps/accounts/src/main.ts")])
  const child = spawn(command!, args, {
    cwd: root,
    env: { ...env, ACCOUNTS_WORKERS: String(workers) },
    stdio: ["ignore", openSync(log, "w"), "inherit"]
  })
  const ready = workers === 1 ? "\"msg\":\"docs at " : "\"event\":\"workers_listening\""
  const deadline = Date.now() + 120_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`accounts exited with ${child.exitCode}`)
    if (readFileSync(log, "utf8").includes(ready)) return child
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  child.kill()
  throw new Error("accounts did not start")
}

const stopAccounts = (child: ChildProcess): Promise<void> =>
  new Promise((resolve) => {
    if (child.exitCode !== null) return resolve()
    child.once("exit", () => resolve())
    child.kill("SIGTERM")
  })

const postJson = async (path: string, body: unknown) => {
  const response = await fetch(`${base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body)
  })
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`)
  return response.json() as Promise<Record<string, string | undefined>>
}

/** A bearer for GET /v1/me: a Carbon made by the operator command, signed in from a terminal with the mailed code. */
const signIn = async (): Promise<string> => {
  const handle = `bench${Date.now().toString(36)}`
  const email = `${handle}@example.com`
  await promisify(execFile)(process.execPath, [
    "--import",
    "tsx",
    "apps/accounts/src/cli.ts",
    "carbons",
    "create",
    "--email",
    email,
    "--id",
    `c:${handle}`,
    "--display-name",
    "Bench Mark"
  ], { cwd: root, env })
  const { challenge_id } = await postJson("/v1/cli/login/start", { email })
  const mailbox = join(dataDir, "mailbox.jsonl")
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    const mail = existsSync(mailbox) ? readFileSync(mailbox, "utf8") : ""
    const code = mail.split("\n").filter((line) => line.includes(email)).map((line) => JSON.parse(line) as { code?: string })
      .at(-1)?.code
    if (code !== undefined) {
      const token = (await postJson("/v1/cli/login/verify", { challenge_id, code, client_label: "bench" }))["access_token"]
      if (token !== undefined) return token
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error("no sign-in code arrived")
}

const load = async (url: string, headers: Record<string, string>): Promise<LoadResult> => {
  await cannon({ url, headers }, seconds) // warm-up: JIT and connection pools, not counted
  return cannon({ url, headers }, seconds)
}

const routes = [
  { label: "discovery document (from memory)", path: "/.well-known/openid-configuration", bearer: false },
  { label: "GET /v1/meta (routed, no query)", path: "/v1/meta", bearer: false },
  { label: "GET /v1/me with a bearer (PostgreSQL)", path: "/v1/me", bearer: true }
]

let accessToken = ""
const measured: Array<{ readonly label: string; readonly workers: number; readonly result: LoadResult }> = []
try {
  for (const workers of [1, 2]) {
    const server = await startAccounts(workers)
    try {
      if (accessToken === "") accessToken = await signIn()
      for (const route of routes) {
        const result = await load(`${base}${route.path}`, route.bearer ? { authorization: `Bearer ${accessToken}` } : {})
        measured.push({ label: route.label, workers, result })
        process.stdout.write(`${route.path}, ${workers} worker(s): ${JSON.stringify(result)}\n`)
      }
    } finally {
      await stopAccounts(server)
    }
  }
} finally {
  await database.drop()
}

const rows = routes.flatMap((route) => {
  const ofRoute = measured.filter((m) => m.label === route.label)
  const one = ofRoute.find((m) => m.workers === 1)?.result.rps ?? Number.NaN
  return ofRoute.map(({ result: r, workers }) =>
    `| ${route.label} | ${workers} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${(r.rps / one).toFixed(2)} | ${r.non2xx} |`
  )
})

writeSection(
  join(root, "apps/accounts/docs/benchmarks.md"),
  "workers",
  `## One process or two workers behind one port (\`npm run bench:workers\`)

Measured ${new Date().toISOString().slice(0, 10)} on ${machine()}; database: a fresh one on the PostgreSQL server. autocannon, ${connections} connections (each handed to the next worker), ${seconds} s per target after a ${seconds} s warm-up. The server may use every core (two workers on one core would measure nothing; it is started with every core allowed, not the load generator's pinning it would inherit); the load generator is pinned to core 0, so on two cores the second worker shares that core with it.

| route | workers | req/s | p50 ms | p99 ms | × 1 worker | non-2xx |
| --- | --- | --- | --- | --- | --- | --- |
${rows.join("\n")}`
)
process.stdout.write(`written to apps/accounts/docs/benchmarks.md\n`)
