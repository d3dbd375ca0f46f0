/**
 * `npm run bench:refresh`: refresh-token rotation and an authenticated account
 * route, side by side in one run:
 * - our POST /v1/oauth/token (grant refresh_token): every request spends a fresh
 *   single-use token and gets the next one (each connection follows its own
 *   chain), persisted in PostgreSQL (TEST_DATABASE_URL / ACCOUNTS_DATABASE_URL,
 *   else the embedded database);
 * - panva's oidc-provider rotating refresh tokens on its in-memory store, the same way;
 * - our GET /v1/me with a bearer token (signature, sign-in lookup, account read);
 * - a bare node:http server answering the same JSON.
 * Writes req/s, p50, p99 and the ratios to apps/accounts/docs/benchmarks.md.
 */
import { Database } from "@platform/database"
import autocannon from "autocannon"
import { Effect, Option, Redacted } from "effect"
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { AccountsRepo } from "../../apps/accounts/src/accounts/AccountsRepo.ts"
import { SigninsRepo } from "../../apps/accounts/src/oauth/SigninsRepo.ts"
import { accountsMigrations } from "../../apps/accounts/src/migrations.ts"
import { chainLoad, type LoadResult } from "./chainLoad.ts"
import { machine, writeSection } from "./report.ts"
import { startServer, stopServer } from "./servers/spawn.ts"

const root = join(import.meta.dirname, "..", "..")
const seconds = Number(process.env["BENCH_SECONDS"] ?? 10)
const connections = 50
const ports = { ours: 4196, peer: 4197, bare: 4198 }
const work = mkdtempSync(join(tmpdir(), "bench-refresh-"))
const dataDir = join(work, "accounts")
const databaseUrl = process.env["ACCOUNTS_DATABASE_URL"] ?? process.env["TEST_DATABASE_URL"]
const base = `http://127.0.0.1:${ports.ours}`

const ours = await startServer(join(root, "apps/accounts/src/main.ts"), {
  ACCOUNTS_PORT: String(ports.ours),
  ACCOUNTS_DATA_DIR: dataDir,
  ...(databaseUrl ? { ACCOUNTS_DATABASE_URL: databaseUrl } : {})
}, `${base}/readyz`)

// One Carbon and one sign-in per connection, made through the service's own repositories on the same
// database (on the embedded one, as a client of the running server, like the operator command).
const refreshTokens = await Effect.runPromise(
  Effect.gen(function*() {
    const accounts = yield* AccountsRepo
    const signins = yield* SigninsRepo
    const handle = `bench${Date.now().toString(36)}`
    const carbon = yield* Effect.orDie(
      accounts.createCarbon({ id: `c:${handle}`, displayName: "Bench Mark", email: `${handle}@example.com` })
    )
    const started = yield* Effect.forEach(Array.from({ length: connections }), () =>
      Effect.orDie(signins.start({
        accountUuid: carbon.uuid,
        clientId: "accounts",
        clientLabel: "bench",
        method: "cli_code",
        now: new Date()
      })))
    return started.map((s) => s.refreshToken)
  }).pipe(
    Effect.provide([AccountsRepo.Default, SigninsRepo.Default]),
    Effect.provide(Database.layer({
      url: databaseUrl === undefined ? Option.none() : Option.some(Redacted.make(databaseUrl)),
      dataDir,
      migrations: accountsMigrations
    })),
    Effect.scoped
  )
)

// The bearer for GET /v1/me comes from one ordinary refresh, which also moves that chain on.
const first = await (await fetch(`${base}/v1/oauth/token`, {
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams({ grant_type: "refresh_token", client_id: "accounts", refresh_token: refreshTokens[0]! })
    .toString()
})).json() as { access_token: string; refresh_token: string }
refreshTokens[0] = first.refresh_token
const accessToken = first.access_token

const tokensFile = join(work, "peer-tokens.json")
const peer = await startServer(join(root, "scripts/bench/servers/oidc-provider-refresh.ts"), {
  PORT: String(ports.peer),
  COUNT: String(connections),
  TOKENS_FILE: tokensFile
})
const peerTokens: Array<string> = JSON.parse(readFileSync(tokensFile, "utf8"))
const me = await (await fetch(`${base}/v1/me`, { headers: { authorization: `Bearer ${accessToken}` } })).text()
writeFileSync(join(work, "me.json"), me)
const bare = await startServer(join(root, "scripts/bench/servers/bare.ts"), {
  PORT: String(ports.bare),
  DISCOVERY_FILE: join(work, "me.json"),
  JWKS_FILE: join(work, "me.json")
})

type Result = LoadResult
const summary = (result: autocannon.Result): Result => ({
  rps: result.requests.average,
  p50: result.latency.p50,
  p99: result.latency.p99,
  non2xx: result.non2xx + result.errors
})

/** Each worker follows its own rotation chain: send the token it holds, keep the one it gets back. */
const rotations = (url: string, pool: ReadonlyArray<string>, clientId: string) =>
  chainLoad({
    workers: connections,
    seconds,
    initial: (worker) => pool[worker]!,
    send: async (token) => {
      const response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "refresh_token", client_id: clientId, refresh_token: token }).toString()
      })
      const body = await response.json() as { refresh_token?: string }
      return { ok: response.status === 200, next: body.refresh_token ?? token }
    }
  })

const plain = async (url: string, headers: Record<string, string> = {}) => {
  await autocannon({ url, connections, duration: seconds, headers })
  return summary(await autocannon({ url, connections, duration: seconds, headers }))
}

try {
  // No separate warm-up for the chains: every token is single use; the chains run on from where they are.
  const oursRefresh = await rotations(`${base}/v1/oauth/token`, refreshTokens, "accounts")
  const peerRefresh = await rotations(`http://127.0.0.1:${ports.peer}/token`, peerTokens, "bench")
  const oursMe = await plain(`${base}/v1/me`, { authorization: `Bearer ${accessToken}` })
  const bareMe = await plain(`http://127.0.0.1:${ports.bare}/.well-known/openid-configuration`)
  for (const [name, r] of Object.entries({ oursRefresh, peerRefresh, oursMe, bareMe })) {
    process.stdout.write(`${name} ${JSON.stringify(r)}\n`)
  }
  const row = (label: string, r: Result, against: Result) =>
    `| ${label} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${(r.rps / against.rps).toFixed(2)} | ${r.non2xx} |`
  writeSection(
    join(root, "apps/accounts/docs/benchmarks.md"),
    "refresh",
    `## Refresh-token rotation and \`GET /v1/me\` (\`npm run bench:refresh\`)

Measured ${new Date().toISOString().slice(0, 10)} on ${machine()}; our database: ${
      databaseUrl ? "PostgreSQL server" : "embedded PGlite"
    }; oidc-provider: its in-memory store. Rotations: ${connections} client loops for ${seconds} s, each sending its next refresh once it has read the last answer (scripts/bench/chainLoad.ts; autocannon prepares requests ahead of answers, which would spend a token twice). \`GET /v1/me\`: autocannon, ${connections} connections, ${seconds} s after a ${seconds} s warm-up. Servers pinned to core 1, load generator on core 0. A rotation spends a fresh single-use refresh token and answers the next one with a new signed access token; each connection follows its own chain.

| operation | req/s | p50 ms | p99 ms | ratio | non-2xx |
| --- | --- | --- | --- | --- | --- |
${row("accounts: refresh rotation (× oidc-provider)", oursRefresh, peerRefresh)}
${row("oidc-provider 9: refresh rotation, in memory", peerRefresh, peerRefresh)}
${row("accounts: GET /v1/me with a bearer (× bare)", oursMe, bareMe)}
${row("bare node:http, same JSON", bareMe, bareMe)}`
  )
} finally {
  await Promise.all([stopServer(ours), stopServer(peer), stopServer(bare)])
}
