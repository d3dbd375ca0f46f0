/**
 * What bench:discovery, bench:oauth and bench:refresh share: the four servers each row is measured
 * on, side by side in one run, and the table they are reported in.
 * - ours: the accounts server, run as `npm start` runs it, on a fresh database `bench_ours` of the
 *   PostgreSQL server at ACCOUNTS_DATABASE_URL (or TEST_DATABASE_URL) when set (made anew at each
 *   run, kept afterwards for a look), else on a fresh embedded database;
 * - peerPg: panva's oidc-provider on PostgreSQL (servers/postgresAdapter.ts), in a fresh database
 *   on the same server as ours, dropped at the end; left out when no PostgreSQL URL is set;
 * - peerMemory: the same oidc-provider on its in-memory store;
 * - bare: a bare node:http server answering our JSON from memory.
 */
import autocannon from "autocannon"
import type { ChildProcess } from "node:child_process"
import { join } from "node:path"
import type { LoadResult } from "./chainLoad.ts"
import { withCpuPerRequest } from "./cpuTime.ts"
import { createScratchDatabase, freshDatabase } from "./scratchDatabase.ts"
import { startServer, stopServer } from "./servers/spawn.ts"

export const root = join(import.meta.dirname, "..", "..")
export const seconds = Number(process.env["BENCH_SECONDS"] ?? 10)
export const connections = 50
const configured = (name: string) => process.env[name]?.trim() || undefined
const serverUrl = configured("ACCOUNTS_DATABASE_URL") ?? configured("TEST_DATABASE_URL")
/** Our database for this run: never one that earlier runs or tests left in another schema. */
export const databaseUrl = serverUrl === undefined ? undefined : await freshDatabase(serverUrl, "bench_ours")

export type Side = "ours" | "peerPg" | "peerMemory" | "bare"
export type Peer = "peerPg" | "peerMemory"

/** The columns, in order; without a PostgreSQL server, no peer on PostgreSQL. */
export const sides: ReadonlyArray<Side> = databaseUrl === undefined
  ? ["ours", "peerMemory", "bare"]
  : ["ours", "peerPg", "peerMemory", "bare"]
export const peers: ReadonlyArray<Peer> = sides.filter((side): side is Peer => side === "peerPg" || side === "peerMemory")

const labels: Record<Side, string> = {
  ours: databaseUrl === undefined ? "accounts (embedded PGlite)" : "accounts (PostgreSQL)",
  peerPg: "oidc-provider 9 on PostgreSQL",
  peerMemory: "oidc-provider 9 in memory",
  bare: "bare node:http"
}
const onPostgres = (side: Side) => side === "peerPg" || (side === "ours" && databaseUrl !== undefined)

export type Measured = LoadResult & { readonly serverCpuUs: number; readonly postgresCpuUs: number }

/** An autocannon run of `duration` seconds with the benches' connections, as a LoadResult. */
export const cannon = async (options: autocannon.Options, duration: number): Promise<LoadResult> => {
  const result = await autocannon({ connections, pipelining: 1, ...options, duration })
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx + result.errors }
}

/** The servers of one run: started in turn, measured, and all stopped (and the peer's database dropped) by `close`. */
export const makeLineup = () => {
  const running = new Map<Side, ChildProcess>()
  const cleanups: Array<() => Promise<void>> = []
  const start = async (side: Side, script: string, env: Record<string, string>, readyUrl?: string) => {
    const child = await startServer(join(root, script), env, readyUrl)
    running.set(side, child)
    cleanups.push(() => stopServer(child))
  }
  return {
    startOurs: (port: number, dataDir: string) =>
      start("ours", "apps/accounts/src/main.ts", {
        ACCOUNTS_PORT: String(port),
        ACCOUNTS_DATA_DIR: dataDir,
        ...(databaseUrl === undefined ? {} : { ACCOUNTS_DATABASE_URL: databaseUrl })
      }, `http://127.0.0.1:${port}/readyz`),
    /** Starts `script` once per peer: on a fresh database of our PostgreSQL server, and in memory. */
    startPeers: async (script: string, envOf: (peer: Peer) => Record<string, string>) => {
      if (databaseUrl === undefined) {
        process.stdout.write("no ACCOUNTS_DATABASE_URL or TEST_DATABASE_URL: oidc-provider on PostgreSQL skipped\n")
      }
      for (const peer of peers) {
        let env = envOf(peer)
        if (peer === "peerPg" && databaseUrl !== undefined) {
          const database = await createScratchDatabase(databaseUrl, "bench_peer")
          // Dropped last: after the peer (pushed next) has stopped and closed its connections.
          cleanups.unshift(database.drop)
          env = { ...env, PEER_DATABASE_URL: database.url }
        }
        await start(peer, script, env)
      }
    },
    startBare: (script: string, env: Record<string, string>) => start("bare", script, env),
    /** Runs `load` for `warmUpSeconds` (not counted), then measures it for `seconds` with the CPU per request. */
    measure: async (side: Side, load: (duration: number) => Promise<LoadResult>, warmUpSeconds = 0) => {
      if (warmUpSeconds > 0) await load(warmUpSeconds)
      return withCpuPerRequest(running.get(side)?.pid, seconds, () => load(seconds))
    },
    close: async () => {
      const stops = cleanups.splice(0).reverse()
      for (const stop of stops) await stop()
    }
  }
}

/** A row: what an operation measured on each side (none where a side has no such operation). */
export interface Row {
  readonly label: string
  readonly results: Partial<Record<Side, Measured>>
}

/** Measures every operation on every side in turn, printing each result as it comes. */
export const measureRows = async (
  operations: ReadonlyArray<{ readonly label: string; readonly run: (side: Side) => Promise<Measured> | undefined }>
): Promise<Array<Row>> => {
  const rows: Array<Row> = []
  for (const operation of operations) {
    const results: Partial<Record<Side, Measured>> = {}
    for (const side of sides) {
      const pending = operation.run(side)
      if (pending === undefined) continue
      results[side] = await pending
      process.stdout.write(`${operation.label} | ${side}: ${JSON.stringify(results[side])}\n`)
    }
    rows.push({ label: operation.label, results })
  }
  return rows
}

const cell = (side: Side, r: Measured | undefined) => {
  if (r === undefined) return "–"
  const cpu = `CPU ${r.serverCpuUs} µs${onPostgres(side) ? ` + PostgreSQL ${r.postgresCpuUs} µs` : ""}`
  return [`**${Math.round(r.rps)}** req/s`, `p50 ${r.p50} / p99 ${r.p99} ms`, cpu, ...(r.non2xx > 0 ? [`${r.non2xx} non-2xx`] : [])]
    .join("<br>")
}
const ratio = (r: Row, peer: Peer) => {
  const ours = r.results.ours
  const theirs = r.results[peer]
  return ours === undefined || theirs === undefined ? "–" : (ours.rps / theirs.rps).toFixed(2)
}

/** The four-column table of `rows`, with ours over each peer in req/s. */
export const lineupTable = (rows: ReadonlyArray<Row>): string =>
  [
    `| operation | ${sides.map((side) => labels[side]).join(" | ")} | ${peers.map((peer) => `ours × ${labels[peer]}`).join(" | ")} |`,
    `| --- |${" --- |".repeat(sides.length + peers.length)}`,
    ...rows.map((r) =>
      `| ${r.label} | ${sides.map((side) => cell(side, r.results[side])).join(" | ")} | ${
        peers.map((peer) => ratio(r, peer)).join(" | ")
      } |`
    )
  ].join("\n")

/** What the columns and cells of `lineupTable` hold, for the text above it. */
export const lineupLegend = (): string =>
  [
    "Columns, each server in its own process pinned to core 1, the load generator on core 0:",
    databaseUrl === undefined
      ? "- accounts (embedded PGlite): our server as `npm start` runs it without a database URL, on a fresh embedded database (PGlite) inside the server's process (so its CPU includes the database's). *No PostgreSQL URL was set (ACCOUNTS_DATABASE_URL or TEST_DATABASE_URL), so the column for oidc-provider on PostgreSQL is skipped.*"
      : "- accounts (PostgreSQL): our server as `npm start` runs it, on the PostgreSQL server (a pool of 10 connections, named prepared statements).",
    ...(databaseUrl === undefined ? [] : [
      "- oidc-provider 9 on PostgreSQL: panva's oidc-provider on the same PostgreSQL server through our adapter (scripts/bench/servers/postgresAdapter.ts): one table per model, one JSONB payload per row with its expiry and the grant_id, uid and user_code columns its lookups use, indexed; a fresh database per run, dropped after it; a pg pool of 10 connections with named prepared statements and 2-second timeouts, as ours."
    ]),
    "- oidc-provider 9 in memory: the same oidc-provider on its own in-memory store (its MemoryAdapter and LRU, sized to hold every token of the run).",
    "- bare node:http: a bare node:http server answering our JSON from memory.",
    "",
    `Each cell: requests per second; p50 and p99 latency; CPU time per request (user + system, from /proc) of the server's process${
      databaseUrl === undefined ? "" : " and, for the two servers on PostgreSQL, of all the PostgreSQL server's processes (postmaster, backends, background writers)"
    }. The last column${peers.length > 1 ? "s give" : " gives"} our req/s over the peer's.`
  ].join("\n")
