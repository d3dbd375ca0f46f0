/**
 * `npm run bench:request-path`: where a routed request's time goes. The same `GET /v1/meta` answer, with no
 * query behind it, from five servers in one run (each its own process pinned to core 1, autocannon on core 0,
 * 50 connections): a bare node:http server, node:http running the handler on a prebuilt Effect runtime with a
 * precompiled encoder, the same with the headers and log line every answer of ours carries, accounts itself (our
 * listener, route table, compiled endpoints, conventions, request log), and Effect's HttpApi with that one endpoint
 * and nothing else. The steps between them are the cost of each layer. Writes the
 * "request-path" section of apps/accounts/docs/benchmarks.md.
 */
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { ChildProcess } from "node:child_process"
import { withCpuPerRequest } from "./cpuTime.ts"
import { cannon, databaseUrl, root, seconds } from "./lineup.ts"
import { machine, writeSection } from "./report.ts"
import { startServer, stopServer } from "./servers/spawn.ts"

const work = mkdtempSync(join(tmpdir(), "bench-request-path-"))
const metaFile = join(work, "meta.json")
// Each stage's step is what it adds to its base's CPU per request.
const stages = [
  { name: "bare", label: "bare node:http, pre-serialized bytes", base: undefined },
  { name: "runtime", label: "node:http + the handler on a prebuilt Effect runtime + precompiled encoder", base: "bare" },
  { name: "floor", label: "the same + what every answer of ours carries: request id, version and security headers, the log line", base: "runtime" },
  { name: "accounts", label: "accounts: our listener and route table, the endpoint compiled, our conventions, request log", base: "floor" },
  { name: "httpapi", label: "Effect HttpApi, this one endpoint only (no conventions, tracer off)", base: "runtime" }
] as const
const ports = { bare: 4731, runtime: 4732, floor: 4735, httpapi: 4733, accounts: 4734 } as const
const progress = (line: string) => process.stderr.write(`bench:request-path: ${line}\n`)
const running: Array<ChildProcess> = []

try {
  // Accounts as npm start runs it, on a fresh database of the PostgreSQL server when one is named (else embedded,
  // whose database then runs inside the server's process and counts in its CPU); GET /v1/meta reads nothing.
  const accounts = await startServer(join(root, "apps/accounts/src/main.ts"), {
    ACCOUNTS_PORT: String(ports.accounts),
    ACCOUNTS_DATA_DIR: join(work, "accounts"),
    ...(databaseUrl === undefined ? {} : { ACCOUNTS_DATABASE_URL: databaseUrl })
  }, `http://127.0.0.1:${ports.accounts}/readyz`)
  running.push(accounts)
  writeFileSync(metaFile, await (await fetch(`http://127.0.0.1:${ports.accounts}/v1/meta`)).text())

  const results: Array<(typeof stages)[number] & Awaited<ReturnType<typeof cannon>> & { readonly serverCpuUs: number }> = []
  for (const stage of stages) {
    const url = `http://127.0.0.1:${ports[stage.name]}/v1/meta`
    let child = accounts
    if (stage.name !== "accounts") {
      child = await startServer(join(root, "scripts/bench/servers/request-stages.ts"), {
        STAGE: stage.name,
        PORT: String(ports[stage.name]),
        META_FILE: metaFile
      })
      running.push(child)
    }
    const answer = await fetch(url)
    if (answer.status !== 200 || (await answer.text()).length === 0) throw new Error(`${stage.name}: ${answer.status}`)
    await cannon({ url }, seconds) // warm-up
    const measured = await withCpuPerRequest(child.pid, seconds, () => cannon({ url }, seconds))
    if (measured.non2xx > 0) throw new Error(`${stage.name}: ${measured.non2xx} answers were not 2xx`)
    progress(`${stage.name}: ${Math.round(measured.rps)} req/s, ${measured.serverCpuUs} µs CPU per request`)
    results.push({ ...stage, ...measured })
    if (stage.name !== "accounts") {
      await stopServer(child)
      running.splice(running.indexOf(child), 1)
    }
  }

  const bare = results[0]!
  const rows = results.map((r) => {
    const base = results.find((other) => other.name === r.base)
    const step = base === undefined ? "–" : `+${r.serverCpuUs - base.serverCpuUs} µs over ${base.name}`
    return `| ${r.label} | ${Math.round(r.rps)} | ${(r.rps / bare.rps).toFixed(2)}× | ${r.p50} / ${r.p99} ms | ${r.serverCpuUs} µs | ${step} |`
  })
  writeSection(join(root, "apps/accounts/docs/benchmarks.md"), "request-path", `
## Where a routed request's time goes (\`npm run bench:request-path\`)

Measured ${new Date().toISOString().slice(0, 10)} on ${machine()}; accounts on ${databaseUrl === undefined ? "the embedded database (in its process)" : "the PostgreSQL server"}. The same \`GET /v1/meta\` answer (no query behind it) from five
servers, each in its own process pinned to core 1; autocannon on core 0, ${50} connections, ${seconds} s after a ${seconds} s warm-up.
CPU per request is the server process's user and system time over the requests it answered; each step is what the
row adds to the row it names.

| server | req/s | × bare | p50 / p99 | CPU per request | step |
| --- | --- | --- | --- | --- | --- |
${rows.join("\n")}

Reading the steps. The second row is the least an Effect handler costs: the handler run on a prebuilt runtime, its
answer encoded by a precompiled encoder. The third adds what every answer of ours carries whatever serves it (the
request id, \`X-Content-Type-Options\`, the version header and \`Vary\`, the request's log line), through
@platform/http's own functions, and nothing else: no route table, no checks. The fifth is Effect's own serving
(HttpServer, its router, HttpApiBuilder's handler pipeline) of this one endpoint. Accounts does not use that serving
(issue 13, item 2): the conventions are its node:http listener, in plain code (the route matched once in the table
compiled from the HttpApi definition, every check and refusal without a fiber, the time budget a timer, the request
line written directly), and one fiber per request on a runtime built once runs the endpoint compiled by its group
(\`compiledGroup\`: middleware, synchronous decoders, the handler, a precompiled encoder) with its services copied
once from a map prepared per route (18 entries in accounts). It serves the whole API (165 operations, the
conventions, the log line) for about the CPU Effect's own serving spends on one endpoint.

Where the rest goes (\`--cpu-prof\` of each server, the last 5 s of load): spread thin over the fiber and its
context, the request and response objects and their headers, the log line and their garbage: beside the socket
write and the garbage collector, no function takes above 3 % of the total. The socket write grows as a server slows. \`writev\` took 4.6 µs per request in bare,
5.9 µs in the second row, 11.8 µs in the third and 23 µs in accounts. On this virtual machine a response written to
a client that has gone idle pays for waking it (an interrupt to the other core, through the hypervisor), while a fast
server finds autocannon still busy; so part of each slower row's CPU is the price of being slower, and whatever JS a
route sheds it gets back with interest. See "Targets" below for what 0.5× would take.
Profile with \`BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR"\`.
`)
  process.stdout.write(`${rows.join("\n")}\n`)
} finally {
  for (const child of running) await stopServer(child)
}
