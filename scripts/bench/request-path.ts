/**
 * `npm run bench:request-path`: where a routed request's time goes. The same `GET /v1/meta` answer, with no
 * query behind it, from four servers in one run (each its own process pinned to core 1, autocannon on core 0,
 * 50 connections): a bare node:http server, node:http running the handler on a prebuilt Effect runtime with a
 * precompiled encoder, Effect's HttpApi with that one endpoint and nothing else, and accounts itself (the HttpApi
 * router, our conventions, the request log). The steps between them are the cost of each layer. Writes the
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
const stages = [
  { name: "bare", label: "bare node:http, pre-serialized bytes" },
  { name: "runtime", label: "node:http + the handler on a prebuilt Effect runtime + precompiled encoder" },
  { name: "httpapi", label: "Effect HttpApi, this one endpoint only (no conventions, tracer off)" },
  { name: "accounts", label: "accounts: our listener and route table, the endpoint compiled, our conventions, request log" }
] as const
const ports = { bare: 4731, runtime: 4732, httpapi: 4733, accounts: 4734 } as const
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
  const rows = results.map((r, index) => {
    const step = index === 0 ? "–" : `+${r.serverCpuUs - results[index - 1]!.serverCpuUs} µs`
    return `| ${r.label} | ${Math.round(r.rps)} | ${(r.rps / bare.rps).toFixed(2)}× | ${r.p50} / ${r.p99} ms | ${r.serverCpuUs} µs | ${step} |`
  })
  writeSection(join(root, "apps/accounts/docs/benchmarks.md"), "request-path", `
## Where a routed request's time goes (\`npm run bench:request-path\`)

Measured ${new Date().toISOString().slice(0, 10)} on ${machine()}; accounts on ${databaseUrl === undefined ? "the embedded database (in its process)" : "the PostgreSQL server"}. The same \`GET /v1/meta\` answer (no query behind it) from four
servers, each in its own process pinned to core 1; autocannon on core 0, ${50} connections, ${seconds} s after a ${seconds} s warm-up.
CPU per request is the server process's user and system time over the requests it answered; each step is what the
layer adds to the row above it.

| server | req/s | × bare | p50 / p99 | CPU per request | step |
| --- | --- | --- | --- | --- | --- |
${rows.join("\n")}

Reading the steps: running the handler as an Effect with a precompiled encoder costs little over bare node:http. The
third row is Effect's own serving (HttpServer, its router, HttpApiBuilder's handler pipeline) of this one endpoint.
Accounts does not use that serving (issue 13, item 2): the conventions are its node:http listener, in plain code (the
route matched once in the table compiled from the HttpApi definition, every check and refusal without a fiber, the time
budget a timer, the request line written directly), and one fiber per request on a runtime built once runs the
endpoint compiled by its group (\`compiledGroup\`: middleware, synchronous decoders, the handler, a precompiled
encoder) with its services copied once from a map prepared per route. It serves the whole API (165 operations, the
conventions, the log line) for about the CPU Effect's own serving spends on one endpoint. What is left between this
row and the second is spread thin (profiles: the fiber and its context, the response object and its headers, the log
line, GC); see "Targets" below for what 0.5× would take.
Profile with \`BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR"\`.
`)
  process.stdout.write(`${rows.join("\n")}\n`)
} finally {
  for (const child of running) await stopServer(child)
}
