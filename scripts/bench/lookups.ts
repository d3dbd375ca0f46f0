/**
 * `npm run bench:lookups`: account lookups by apps, GET /v1/accounts/{uuid} and GET
 * /v1/accounts/by-id/{id}, with a warm app credential cache (a warm-up first, not counted), beside
 * a bare node:http server answering the same JSON from memory: the floor.
 * The lookups are limited to 600 per minute per app, so the load turns over enough apps (each a member
 * of the looked-up account, with the email scope) that no app reaches its limit within the run.
 * Our server runs as `npm start` runs it, on ACCOUNTS_DATABASE_URL (or TEST_DATABASE_URL) when set,
 * else on a fresh embedded database. Writes the figures to apps/accounts/docs/benchmarks.md.
 */
import { SqlClient } from "@effect/sql"
import { randomHex } from "@platform/crypto"
import autocannon from "autocannon"
import { Effect, Option } from "effect"
import { mkdtempSync, writeFileSync } from "node:fs"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { AccountsRepo } from "../../apps/accounts/src/accounts/AccountsRepo.ts"
import { AppsRepo } from "../../apps/accounts/src/apps/AppsRepo.ts"
import { createFakeApp } from "../../apps/accounts/src/apps/FakeApps.ts"
import type { LoadResult } from "./chainLoad.ts"
import { connections, databaseUrl, root, seconds } from "./lineup.ts"
import { ourDatabase } from "./ourDatabase.ts"
import { machine, writeSection } from "./report.ts"
import { startServer, stopServer } from "./servers/spawn.ts"

const warmUpSeconds = Math.min(3, seconds)
const ports = { ours: 4186, bare: 4192 }
/** 600 per minute each: room for 600 × apps / 60 lookups per second over a run shorter than a minute. */
const apps = 400
const work = mkdtempSync(join(tmpdir(), "bench-lookups-"))
const dataDir = join(work, "accounts")
const base = `http://127.0.0.1:${ports.ours}`
const loadBefore = loadavg().map((l) => l.toFixed(1)).join(", ")

const ours = await startServer(join(root, "apps/accounts/src/main.ts"), {
  ACCOUNTS_PORT: String(ports.ours),
  ACCOUNTS_DATA_DIR: dataDir,
  ...(databaseUrl === undefined ? {} : { ACCOUNTS_DATABASE_URL: databaseUrl })
}, `${base}/readyz`)

// One Carbon, and the apps it is a member of, through the service's own repositories on the same database.
const { account, credentials } = await Effect.runPromise(
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const accounts = yield* AccountsRepo
    const handle = `bench${randomHex(6)}`
    const account = yield* Effect.orDie(
      accounts.createCarbon({ id: `c:${handle}`, displayName: "Bench Mark", email: `${handle}@example.com` })
    )
    const credentials = yield* Effect.forEach(Array.from({ length: apps }), () =>
      Effect.gen(function*() {
        const appId = `b${randomHex(8)}`
        const { secret } = yield* createFakeApp({
          appId,
          name: "Bench app",
          redirectUris: ["https://bench.example.test/callback"],
          owner: Option.none(),
          scopeFields: []
        })
        yield* sql`
          INSERT INTO memberships (app_id, account_uuid, status, scopes, created_at, last_signin_at)
          VALUES (${appId}, ${account.uuid}, 'active', '["profile","email"]'::jsonb, now(), now())
        `
        return `Basic ${Buffer.from(`${appId}:${secret}`).toString("base64")}`
      }).pipe(Effect.orDie))
    return { account, credentials }
  }).pipe(Effect.provide([AccountsRepo.Default, AppsRepo.Default]), Effect.provide(ourDatabase(dataDir)), Effect.scoped)
)

const paths = { uuid: `/v1/accounts/${account.uuid}`, id: `/v1/accounts/by-id/c:${account.handle}` }
const answer = await fetch(`${base}${paths.uuid}`, { headers: { authorization: credentials[0]! } })
const answerText = await answer.text()
if (answer.status !== 200) throw new Error(`lookup: ${answer.status} ${answerText}`)
writeFileSync(join(work, "account.json"), answerText)
const bare = await startServer(join(root, "scripts/bench/servers/bare.ts"), {
  PORT: String(ports.bare),
  DISCOVERY_FILE: join(work, "account.json"),
  JWKS_FILE: join(work, "account.json")
})

/** autocannon for `duration` seconds, each request with the next app's credentials. */
const cannon = async (url: string, duration: number, turnOverApps: boolean): Promise<LoadResult> => {
  let next = 0
  const result = await autocannon({
    url,
    connections,
    duration,
    ...(turnOverApps
      ? {
        requests: [{
          setupRequest: (request: any) => ({
            ...request,
            headers: { ...request.headers, authorization: credentials[next++ % credentials.length]! }
          })
        }]
      }
      : {})
  })
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx + result.errors }
}

/** A warm-up that fills the credential cache with every app's check, then the counted run. */
const measure = async (url: string, turnOverApps: boolean) => {
  await cannon(url, warmUpSeconds, turnOverApps)
  return cannon(url, seconds, turnOverApps)
}

let results: { uuid: LoadResult; id: LoadResult; bare: LoadResult }
try {
  results = {
    uuid: await measure(`${base}${paths.uuid}`, true),
    id: await measure(`${base}${paths.id}`, true),
    bare: await measure(`http://127.0.0.1:${ports.bare}/.well-known/openid-configuration`, false)
  }
  for (const [name, r] of Object.entries(results)) process.stdout.write(`${name} ${JSON.stringify(r)}\n`)
} finally {
  await Promise.all([stopServer(ours), stopServer(bare)])
}

const row = (label: string, r: LoadResult) =>
  `| ${label} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${(r.rps / results.bare.rps).toPrecision(2)} | ${r.non2xx} |`

writeSection(
  join(root, "apps/accounts/docs/benchmarks.md"),
  "lookups",
  `## Account lookups by apps (\`npm run bench:lookups\`)

Measured ${new Date().toISOString().slice(0, 10)} on ${machine()} (load average before the run: ${loadBefore}); database: ${
    databaseUrl ? "PostgreSQL server" : "embedded PGlite"
  }. Server pinned to core 1, load generator on core 0. autocannon, ${connections} connections, ${seconds} s after a ${warmUpSeconds} s warm-up that leaves every app's credential check in the server's 60-second cache. Each request carries the next of ${apps} apps' Basic credentials (each app a member of the account with the profile and email scopes), so no app reaches the 600-per-minute limit. Bare: a bare node:http server answering the same account JSON from memory; the ratio is to that floor.

| operation | req/s | p50 ms | p99 ms | × bare | non-2xx |
| --- | --- | --- | --- | --- | --- |
${row("GET /v1/accounts/{uuid}", results.uuid)}
${row("GET /v1/accounts/by-id/{id}", results.id)}
${row("bare node:http, same JSON", results.bare)}

Each lookup is the credential check (cached), one rate-limit window upsert and one read of the account with the app's membership.`
)
process.stdout.write(`written to apps/accounts/docs/benchmarks.md\n`)
