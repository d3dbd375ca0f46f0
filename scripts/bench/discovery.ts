/**
 * `npm run bench:discovery`: autocannon (50 connections, 10 s) against our
 * discovery and JWKS documents and, in the same run, the same documents from
 * panva's oidc-provider and from a bare node:http server. Writes req/s, p50,
 * p99 and the ratios to apps/accounts/docs/benchmarks.md.
 *
 * Our server runs exactly as `npm start` runs it, on ACCOUNTS_DATABASE_URL
 * (or TEST_DATABASE_URL) when set, else on a fresh embedded database.
 */
import autocannon from "autocannon"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { machine, writeSection } from "./report.ts"
import { startServer, stopServer } from "./servers/spawn.ts"

const root = join(import.meta.dirname, "..", "..")
const seconds = Number(process.env["BENCH_SECONDS"] ?? 10)
const connections = 50
const ports = { ours: 4191, peer: 4192, bare: 4193 }
const work = mkdtempSync(join(tmpdir(), "bench-discovery-"))
const databaseUrl = process.env["ACCOUNTS_DATABASE_URL"] ?? process.env["TEST_DATABASE_URL"]

interface Result {
  readonly rps: number
  readonly p50: number
  readonly p99: number
  readonly non2xx: number
}

const load = async (url: string): Promise<Result> => {
  const result = await autocannon({ url, connections, duration: seconds, pipelining: 1 })
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx + result.errors
  }
}

const ours = await startServer(join(root, "apps/accounts/src/main.ts"), {
  ACCOUNTS_PORT: String(ports.ours),
  ACCOUNTS_DATA_DIR: join(work, "accounts"),
  ...(databaseUrl ? { ACCOUNTS_DATABASE_URL: databaseUrl } : {})
}, `http://127.0.0.1:${ports.ours}/readyz`)
const discovery = await (await fetch(`http://127.0.0.1:${ports.ours}/.well-known/openid-configuration`)).text()
const jwks = await (await fetch(`http://127.0.0.1:${ports.ours}/.well-known/jwks.json`)).text()
writeFileSync(join(work, "discovery.json"), discovery)
writeFileSync(join(work, "jwks.json"), jwks)
const peer = await startServer(join(root, "scripts/bench/servers/oidc-provider.ts"), { PORT: String(ports.peer) })
const bare = await startServer(join(root, "scripts/bench/servers/bare.ts"), {
  PORT: String(ports.bare),
  DISCOVERY_FILE: join(work, "discovery.json"),
  JWKS_FILE: join(work, "jwks.json")
})

const targets = {
  discovery: {
    ours: `http://127.0.0.1:${ports.ours}/.well-known/openid-configuration`,
    // The same document through the router, the conventions middleware and the handler.
    oursRouted: `http://127.0.0.1:${ports.ours}/.well-known/openid-configuration?via=router`,
    peer: `http://127.0.0.1:${ports.peer}/.well-known/openid-configuration`,
    bare: `http://127.0.0.1:${ports.bare}/.well-known/openid-configuration`
  },
  jwks: {
    ours: `http://127.0.0.1:${ports.ours}/.well-known/jwks.json`,
    oursRouted: `http://127.0.0.1:${ports.ours}/.well-known/jwks.json?via=router`,
    peer: `http://127.0.0.1:${ports.peer}/jwks`,
    bare: `http://127.0.0.1:${ports.bare}/.well-known/jwks.json`
  }
}

const results: Record<string, Record<string, Result>> = {}
try {
  for (const [document, urls] of Object.entries(targets)) {
    results[document] = {}
    for (const [name, url] of Object.entries(urls)) {
      await load(url) // warm-up: JIT and connection pools, not counted
      results[document]![name] = await load(url)
      process.stdout.write(`${document} ${name}: ${JSON.stringify(results[document]![name])}\n`)
    }
  }
} finally {
  await Promise.all([stopServer(ours), stopServer(peer), stopServer(bare)])
}

const row = (label: string, result: Result, bare: Result, peer: Result) =>
  `| ${label} | ${Math.round(result.rps)} | ${result.p50} | ${result.p99} | ${(result.rps / bare.rps).toFixed(2)} | ${
    (result.rps / peer.rps).toFixed(2)
  } | ${result.non2xx} |`

const table = Object.entries(results).map(([document, r]) =>
  [
    `### ${document === "jwks" ? "JWKS" : "Discovery document"}`,
    "",
    "| server | req/s | p50 ms | p99 ms | × bare | × oidc-provider | non-2xx |",
    "| --- | --- | --- | --- | --- | --- | --- |",
    row("accounts (ours)", r["ours"]!, r["bare"]!, r["peer"]!),
    row("accounts, through the router and conventions", r["oursRouted"]!, r["bare"]!, r["peer"]!),
    row("oidc-provider 9", r["peer"]!, r["bare"]!, r["peer"]!),
    row("bare node:http", r["bare"]!, r["bare"]!, r["peer"]!)
  ].join("\n")
).join("\n\n")

writeSection(
  join(root, "apps/accounts/docs/benchmarks.md"),
  "discovery",
  `## Discovery and JWKS (\`npm run bench:discovery\`)

Measured ${new Date().toISOString().slice(0, 10)} on ${machine()}; database: ${
    databaseUrl ? "PostgreSQL server" : "embedded PGlite"
  }. autocannon, ${connections} connections, ${seconds} s per target after a ${seconds} s warm-up; each server in its own process pinned to core 1, the load generator on core 0.

${table}`
)
process.stdout.write(`written to apps/accounts/docs/benchmarks.md\n`)
