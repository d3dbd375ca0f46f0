/**
 * `npm run bench:account`: autocannon (50 connections, 10 s) against GET /v1/me
 * with a first-party bearer token — signature check, sign-in lookup and account
 * read per request, through the router and the conventions — and, in the same
 * run, a bare node:http server answering the same JSON. Writes req/s, p50, p99
 * and the ratio to apps/accounts/docs/benchmarks.md.
 *
 * The account is created with the operator command and signed in through the
 * terminal flow, reading the code from the development mailbox, exactly as a
 * person would on a fresh machine.
 */
import autocannon from "autocannon"
import { execFileSync } from "node:child_process"
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { machine, writeSection } from "./report.ts"
import { startServer, stopServer } from "./servers/spawn.ts"

const root = join(import.meta.dirname, "..", "..")
const seconds = Number(process.env["BENCH_SECONDS"] ?? 10)
const connections = 50
const ports = { ours: 4194, bare: 4195 }
const work = mkdtempSync(join(tmpdir(), "bench-account-"))
const dataDir = join(work, "accounts")
const databaseUrl = process.env["ACCOUNTS_DATABASE_URL"] ?? process.env["TEST_DATABASE_URL"]
const env = { ACCOUNTS_PORT: String(ports.ours), ACCOUNTS_DATA_DIR: dataDir, ...(databaseUrl ? { ACCOUNTS_DATABASE_URL: databaseUrl } : {}) }
const base = `http://127.0.0.1:${ports.ours}`

const ours = await startServer(join(root, "apps/accounts/src/main.ts"), env, `${base}/readyz`)
const handle = `bench${Date.now().toString(36)}`
execFileSync(process.execPath, [
  "--import",
  "tsx",
  join(root, "apps/accounts/src/cli.ts"),
  "carbons",
  "create",
  "--email",
  `${handle}@example.com`,
  "--id",
  `c:${handle}`,
  "--display-name",
  "Bench Mark"
], { env: { ...process.env, ...env }, cwd: root })
const post = async (path: string, body: unknown) =>
  (await fetch(`${base}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }))
    .json() as Promise<Record<string, string>>
const challenge = await post("/v1/cli/login/start", { email: `${handle}@example.com` })
let code: string | undefined
for (let attempt = 0; attempt < 50 && code === undefined; attempt++) {
  await new Promise((resolve) => setTimeout(resolve, 100))
  const lines = readFileSync(join(dataDir, "mailbox.jsonl"), "utf8").trim().split("\n").map((line) => JSON.parse(line))
  code = lines.filter((line) => line.to === `${handle}@example.com`).at(-1)?.code ?? undefined
}
const tokens = await post("/v1/cli/login/verify", { challenge_id: challenge["challenge_id"], code, client_label: "bench" })
const authorization = `Bearer ${tokens["access_token"]}`
const me = await (await fetch(`${base}/v1/me`, { headers: { authorization } })).text()
writeFileSync(join(work, "me.json"), me)
const bare = await startServer(join(root, "scripts/bench/servers/bare.ts"), {
  PORT: String(ports.bare),
  DISCOVERY_FILE: join(work, "me.json"),
  JWKS_FILE: join(work, "me.json")
})

const load = async (url: string, headers: Record<string, string>) => {
  await autocannon({ url, connections, duration: seconds, headers })
  const result = await autocannon({ url, connections, duration: seconds, headers })
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx + result.errors }
}

try {
  const oursResult = await load(`${base}/v1/me`, { authorization })
  const bareResult = await load(`http://127.0.0.1:${ports.bare}/.well-known/openid-configuration`, { authorization })
  process.stdout.write(`ours ${JSON.stringify(oursResult)}\nbare ${JSON.stringify(bareResult)}\n`)
  const row = (label: string, r: typeof oursResult) =>
    `| ${label} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${(r.rps / bareResult.rps).toFixed(2)} | ${r.non2xx} |`
  writeSection(
    join(root, "apps/accounts/docs/benchmarks.md"),
    "account-routes",
    `## An authenticated account route (\`npm run bench:account\`)

Measured ${new Date().toISOString().slice(0, 10)} on ${machine()}; database: ${
      databaseUrl ? "PostgreSQL server" : "embedded PGlite"
    }. autocannon, ${connections} connections, ${seconds} s after a ${seconds} s warm-up; server pinned to core 1, load generator on core 0. \`GET /v1/me\` with a first-party bearer token verifies the EdDSA signature, reads the sign-in (revocation takes effect at once) and the account on every request.

| server | req/s | p50 ms | p99 ms | × bare | non-2xx |
| --- | --- | --- | --- | --- | --- |
${row("accounts GET /v1/me", oursResult)}
${row("bare node:http, same JSON", bareResult)}`
  )
} finally {
  await Promise.all([stopServer(ours), stopServer(bare)])
}
