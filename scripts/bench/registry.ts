/**
 * `npm run bench:registry`: the registry's reads on a catalogue of 10,000 generated apps, beside a bare
 * node:http server answering a search's JSON from memory (the floor), in one run:
 * - search (GET /v1/apps): an exact id, a word prefix matching hundreds of apps, a typo, the first page
 *   by rating without text, text with a target filter;
 * - the same search as an MCP tool call (POST /mcp, tools/call search_apps, stateless);
 * - resolve (GET /v1/apps/{app_id}/resolve?target=linux-x64) when this build serves it.
 * The registry runs as `npm start` runs it, on a fresh database `bench_registry` of the PostgreSQL server at
 * REGISTRY_DATABASE_URL or TEST_DATABASE_URL (required: 10,000 apps is a server's workload), with its rate
 * limits raised (REGISTRY_READS_PER_MINUTE, REGISTRY_WRITES_PER_MINUTE) so that they never refuse the load.
 * The catalogue is inserted with SQL once the server has migrated the database. Writes the table to
 * apps/registry/docs/benchmarks.md.
 */
import Pg from "pg"
import { mkdtempSync, writeFileSync } from "node:fs"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { cannon, connections, root, seconds } from "./lineup.ts"
import { withCpuPerRequest } from "./cpuTime.ts"
import { machine, writeSection } from "./report.ts"
import { freshDatabase } from "./scratchDatabase.ts"
import { startServer, stopServer } from "./servers/spawn.ts"

const serverUrl = process.env["REGISTRY_DATABASE_URL"]?.trim() || process.env["TEST_DATABASE_URL"]?.trim()
if (serverUrl === undefined || serverUrl === "") {
  process.stderr.write("bench:registry needs a PostgreSQL server: set TEST_DATABASE_URL (or REGISTRY_DATABASE_URL)\n")
  process.exit(1)
}
const APPS = 10_000
const warmUpSeconds = Math.min(3, seconds)
const ports = { registry: 4331, bare: 4332 }
const work = mkdtempSync(join(tmpdir(), "bench-registry-"))
const loadBefore = loadavg().map((l) => l.toFixed(1)).join(", ")
const databaseUrl = await freshDatabase(serverUrl, "bench_registry")

// Words apps are named from: ids like `weather-tracker`, `notes-studio-42`; names "Weather Tracker".
const subjects = [
  "weather", "notes", "chess", "budget", "photo", "music", "recipe", "fitness", "travel", "mail", "calendar", "tasks",
  "maps", "news", "podcast", "reader", "journal", "sleep", "garden", "language", "invoice", "crypto", "scanner", "timer",
  "translate", "bird", "star", "code", "paint", "habit", "password", "backup", "chat", "video", "radio", "story"
]
const kinds = [
  "tracker", "studio", "pro", "lite", "hub", "box", "kit", "pal", "flow", "desk", "lab", "cloud", "go", "plus", "one",
  "buddy", "mate", "log", "board", "center"
]
const capital = (word: string) => word[0]!.toUpperCase() + word.slice(1)

/** The generated catalogue: deterministic, so that runs compare. */
const catalogue = () => {
  let seed = 42
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31
  const apps: Array<{ id: string; name: string; tags: string; rating: number | null; installs: number }> = []
  for (let index = 0; apps.length < APPS; index++) {
    const subject = subjects[index % subjects.length]!
    const kind = kinds[Math.floor(index / subjects.length) % kinds.length]!
    const round = Math.floor(index / (subjects.length * kinds.length))
    const id = round === 0 ? `${subject}-${kind}` : `${subject}-${kind}-${round + 1}`
    apps.push({
      id,
      name: `${capital(subject)} ${capital(kind)}${round === 0 ? "" : ` ${round + 1}`}`,
      tags: [subject, kind].join(","),
      rating: random() < 0.1 ? null : Math.round((1 + random() * 4) * 100) / 100,
      installs: Math.floor(random() ** 3 * 1_000_000)
    })
  }
  return apps
}

const seedCatalogue = async () => {
  const client = new Pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    const apps = catalogue()
    const column = <K extends keyof (typeof apps)[number]>(key: K) => apps.map((app) => app[key])
    await client.query(
      `insert into apps (app_id, name, description, tags, status, visibility, administrator_uuid, rating, installs,
         created_by, created_at, updated_at, published_at)
       select id, name, 'A generated app for the benchmark.', string_to_array(tags, ','), 'published', 'public',
         '00000000-0000-4000-8000-000000000001', rating, installs, '00000000-0000-4000-8000-000000000001',
         now() - (ordinality || ' minutes')::interval, now(), now() - (ordinality || ' minutes')::interval
       from unnest($1::text[], $2::text[], $3::text[], $4::numeric[], $5::bigint[]) with ordinality as t(id, name, tags, rating, installs)`,
      [column("id"), column("name"), column("tags"), column("rating"), column("installs")]
    )
    await client.query(
      `insert into app_authors (app_id, account_uuid, account_id, display_name, joined_at)
       select app_id, administrator_uuid, null, 'Bench Author', created_at from apps`
    )
    // Every app: a production release with a package for linux-x64, and for darwin-arm64 every other app.
    await client.query(
      `insert into packages (id, app_id, target, sha256, size, command, validation, bytes, uploaded_by, created_at)
       select 'pkg_' || a.app_id || '_' || t.target, a.app_id, t.target, encode(sha256(convert_to(a.app_id || t.target, 'UTF8')), 'hex'),
         length(a.app_id), a.app_id, '[]', convert_to(a.app_id, 'UTF8'), a.administrator_uuid, now()
       from (select app_id, administrator_uuid, row_number() over (order by app_id) as n from apps) a
       cross join lateral unnest(case when a.n % 2 = 0 then array['linux-x64', 'darwin-arm64'] else array['linux-x64'] end) as t(target)`
    )
    await client.query(
      `insert into releases (id, app_id, channel, version, sequence, created_by, created_at)
       select 'rel_' || app_id, app_id, 'production', '1.0.0', 1, administrator_uuid, now() from apps`
    )
    await client.query(
      `insert into release_packages (release_id, package_id, target) select 'rel_' || app_id, id, target from packages`
    )
    await client.query("analyze")
  } finally {
    await client.end()
  }
}

const registry = await startServer(join(root, "apps/registry/src/main.ts"), {
  REGISTRY_PORT: String(ports.registry),
  REGISTRY_DATA_DIR: join(work, "registry"),
  REGISTRY_DATABASE_URL: databaseUrl,
  REGISTRY_READS_PER_MINUTE: "1000000000",
  REGISTRY_WRITES_PER_MINUTE: "1000000000"
}, `http://127.0.0.1:${ports.registry}/readyz`)
let bare: Awaited<ReturnType<typeof startServer>> | undefined

try {
  await seedCatalogue()
  const base = `http://127.0.0.1:${ports.registry}`
  const searches = [
    { label: "search: an exact id (`q=weather-tracker`)", query: "q=weather-tracker" },
    { label: "search: a word prefix (`q=weath`)", query: "q=weath" },
    { label: "search: a typo (`q=wether`)", query: "q=wether" },
    { label: "search: first page by rating, no text (`sort=rating`)", query: "sort=rating" },
    { label: "search: text and target (`q=notes&target=darwin-arm64`)", query: "q=notes&target=darwin-arm64" }
  ]
  const found = new Map<string, number>()
  let baselineBody = ""
  for (const { query } of searches) {
    const response = await fetch(`${base}/v1/apps?${query}`)
    const text = await response.text()
    if (response.status !== 200) throw new Error(`search ${query}: ${response.status} ${text}`)
    found.set(query, (JSON.parse(text) as { total: number }).total)
    if (query === "q=weath") baselineBody = text
  }
  const mcpCall = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "search_apps", arguments: { q: "weath" } }
  })
  const mcpHeaders = { "content-type": "application/json", accept: "application/json, text/event-stream" }
  const mcpCheck = await fetch(`${base}/mcp`, { method: "POST", headers: mcpHeaders, body: mcpCall })
  const mcpText = await mcpCheck.text()
  if (mcpCheck.status !== 200 || mcpText.includes("\"isError\":true")) throw new Error(`MCP search: ${mcpCheck.status} ${mcpText}`)
  const resolvePath = "/v1/apps/weather-tracker/resolve?target=linux-x64"
  const resolveCheck = await fetch(`${base}${resolvePath}`)
  if (resolveCheck.status !== 200) throw new Error(`resolve: ${resolveCheck.status} ${await resolveCheck.text()}`)
  await resolveCheck.arrayBuffer()

  writeFileSync(join(work, "search.json"), baselineBody)
  bare = await startServer(join(root, "scripts/bench/servers/bare-registry.ts"), {
    PORT: String(ports.bare),
    BODY_FILE: join(work, "search.json")
  })

  const measure = async (pid: number | undefined, load: (duration: number) => ReturnType<typeof cannon>) => {
    await load(warmUpSeconds)
    return withCpuPerRequest(pid, seconds, () => load(seconds))
  }
  const get = (url: string) => (duration: number) => cannon({ url }, duration)
  const rows: Array<{ label: string; result: Awaited<ReturnType<typeof measure>>; pg: boolean }> = []
  for (const { label, query } of searches) {
    rows.push({ label: `${label}: ${found.get(query)} found`, result: await measure(registry.pid, get(`${base}/v1/apps?${query}`)), pg: true })
  }
  // Every request a query not asked in the last few seconds, so no kept answer serves it: the database's own cost.
  const distinct = subjects.flatMap((subject) => kinds.map((kind) => `q=${subject}-${kind}`))
  let next = 0
  rows.push({
    label: `search: a different query each request (${distinct.length} \`q=<subject>-<kind>\` in turn): no kept answer`,
    result: await measure(registry.pid, (duration) =>
      cannon({
        url: base,
        requests: [{ method: "GET", setupRequest: (request) => ({ ...request, path: `/v1/apps?${distinct[next++ % distinct.length]}` }) }]
      }, duration)),
    pg: true
  })
  rows.push({
    label: "MCP tools/call search_apps (`q: weath`), stateless",
    result: await measure(registry.pid, (duration) => cannon({ url: `${base}/mcp`, method: "POST", headers: mcpHeaders, body: mcpCall }, duration)),
    pg: true
  })
  rows.push({ label: "resolve (`weather-tracker`, linux-x64)", result: await measure(registry.pid, get(`${base}${resolvePath}`)), pg: true })
  const bareResult = await measure(bare.pid, get(`http://127.0.0.1:${ports.bare}/v1/apps?q=weath`))
  rows.push({ label: "bare node:http: the `q=weath` answer from memory", result: bareResult, pg: false })
  for (const row of rows) process.stdout.write(`${row.label} ${JSON.stringify(row.result)}\n`)

  const line = ({ label, pg, result }: (typeof rows)[number]) =>
    `| ${label} | ${Math.round(result.rps)} | ${result.p50} | ${result.p99} | ${result.serverCpuUs}${pg ? ` + PostgreSQL ${result.postgresCpuUs}` : ""} | ${
      (result.rps / bareResult.rps).toPrecision(2)
    } | ${result.non2xx} |`
  writeSection(
    join(root, "apps/registry/docs/benchmarks.md"),
    "registry",
    `## Search and resolve on 10,000 apps (\`npm run bench:registry\`)

Measured ${new Date().toISOString().slice(0, 10)} on ${machine()} (load average before the run: ${loadBefore})${
      process.env["BENCH_NOTE"] === undefined ? "" : `; ${process.env["BENCH_NOTE"]}`
    }. The registry runs as \`npm start\` runs it, on a fresh database \`bench_registry\` of a PostgreSQL server (a pool of 10 connections, named prepared statements), with its rate limits raised for the run (every request still counts in PostgreSQL). Catalogue: ${APPS} published public apps named from 36 subjects × 20 kinds (\`weather-tracker\`, \`Weather Tracker 2\`), ratings and installs drawn from a fixed seed, each with a production release (linux-x64; darwin-arm64 for every other app). Server pinned to core 1, autocannon on core 0; each row warms up ${warmUpSeconds} s, then measures ${seconds} s with ${connections} connections, anonymous (no bearer). A row repeating one query is served mostly from the answers a process keeps under the catalogue's version (each kept 5 s, dropped at any change of the catalogue); the row asking a different query each time measures the database's work. Bare: node:http answering the \`q=weath\` search's JSON (${Buffer.byteLength(baselineBody)} bytes, 50 apps) from memory.

| operation | req/s | p50 ms | p99 ms | server CPU µs per request | × bare | non-2xx |
| --- | --- | --- | --- | --- | --- | --- |
${rows.map(line).join("\n")}

Package validation in the sandbox is measured by the packages area's benchmark.`
  )
  process.stdout.write("written to apps/registry/docs/benchmarks.md\n")
} finally {
  await Promise.all([stopServer(registry), ...(bare === undefined ? [] : [stopServer(bare)])])
}
