/**
 * `npm run bench:oauth`: the OAuth endpoints an app calls, side by side in one run with panva's
 * oidc-provider (in memory, configured for the same grants) and a bare node:http server:
 * - authorization_code exchange at the token endpoint (codes minted beforehand, each sent once);
 * - refresh-token rotation of an app's refresh token (each loop follows its own chain);
 * - userinfo with an app access token;
 * - introspection of an app access token by the app.
 * Our server runs as `npm start` runs it, on ACCOUNTS_DATABASE_URL (or TEST_DATABASE_URL) when set,
 * else on a fresh embedded database. Writes req/s, p50, p99 and the ratios to apps/accounts/docs/benchmarks.md.
 */
import { randomToken } from "@platform/crypto"
import { Database } from "@platform/database"
import autocannon from "autocannon"
import { Effect, Layer, ManagedRuntime, Option, Redacted } from "effect"
import { createHash, randomBytes } from "node:crypto"
import { mkdtempSync, writeFileSync } from "node:fs"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { AccountsRepo } from "../../apps/accounts/src/accounts/AccountsRepo.ts"
import { AppsRepo } from "../../apps/accounts/src/apps/AppsRepo.ts"
import { createFakeApp } from "../../apps/accounts/src/apps/FakeApps.ts"
import { AuthorizationCodes } from "../../apps/accounts/src/oauth/AuthorizationCodes.ts"
import { accountsMigrations } from "../../apps/accounts/src/migrations.ts"
import { chainLoad, type LoadResult } from "./chainLoad.ts"
import { withCpuPerRequest } from "./cpuTime.ts"
import { machine, writeSection } from "./report.ts"
import { startServer, stopServer } from "./servers/spawn.ts"

const root = join(import.meta.dirname, "..", "..")
const seconds = Number(process.env["BENCH_SECONDS"] ?? 10)
const warmUpSeconds = Math.min(3, seconds)
const connections = 50
const carbons = 100 // codes go round-robin over them, as concurrent sign-ins are of different people
// Codes minted ahead per second of load, above what each server can exchange (a run that used them all fails).
const codesPerSecond = { ours: 1500, peer: 4000 }
const ports = { ours: 4206, peer: 4207, bare: 4208, mint: 4209 }
const work = mkdtempSync(join(tmpdir(), "bench-oauth-"))
const dataDir = join(work, "accounts")
const databaseUrl = process.env["ACCOUNTS_DATABASE_URL"] ?? process.env["TEST_DATABASE_URL"]
const redirectUri = "https://bench.example/callback"
const scope = "openid profile email"
const verifier = randomBytes(32).toString("base64url")
const challenge = createHash("sha256").update(verifier).digest("base64url")
const loadBefore = loadavg().map((l) => l.toFixed(1)).join(", ")

interface Target {
  readonly name: "ours" | "peer" | "bare"
  readonly base: string
  readonly paths: { readonly token: string; readonly userinfo: string; readonly introspect: string }
  readonly authorization: string
}
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`

const ours = await startServer(join(root, "apps/accounts/src/main.ts"), {
  ACCOUNTS_PORT: String(ports.ours),
  ACCOUNTS_DATA_DIR: dataDir,
  ...(databaseUrl ? { ACCOUNTS_DATABASE_URL: databaseUrl } : {})
}, `http://127.0.0.1:${ports.ours}/readyz`)
const peerSecret = randomToken("bench_")
const peer = await startServer(join(root, "scripts/bench/servers/oidc-provider-oauth.ts"), {
  PORT: String(ports.peer),
  MINT_PORT: String(ports.mint),
  CLIENT_SECRET: peerSecret,
  REDIRECT_URI: redirectUri
})
let bare: Awaited<ReturnType<typeof startServer>> | undefined

// A fake app and Carbons, and later the codes, through the service's own repositories on the same database.
const runtime = ManagedRuntime.make(
  Layer.mergeAll(AccountsRepo.Default, AppsRepo.Default, AuthorizationCodes.Default).pipe(
    Layer.provideMerge(Database.layer({
      url: databaseUrl === undefined ? Option.none() : Option.some(Redacted.make(databaseUrl)),
      dataDir,
      migrations: accountsMigrations
    }))
  )
)
const setup = await runtime.runPromise(Effect.gen(function*() {
  const accounts = yield* AccountsRepo
  const stamp = Date.now().toString(36)
  const uuids = yield* Effect.forEach(Array.from({ length: carbons }, (_, i) => i), (i) =>
    Effect.orDie(accounts.createCarbon({
      id: `c:bench${stamp}x${i}`,
      displayName: "Bench Mark",
      email: `bench${stamp}x${i}@example.com`
    })).pipe(Effect.map((carbon) => carbon.uuid)), { concurrency: 10 })
  const appId = `bench${stamp}`
  const { secret } = yield* Effect.orDie(
    createFakeApp({ appId, name: "Bench app", redirectUris: [redirectUri], owner: Option.none(), scopeFields: [] })
  )
  return { uuids, appId, secret }
}))

/** Our codes, as the hosted flow mints them at the end of a sign-in (PKCE S256), valid 120 s. */
const mintOurs = (count: number) =>
  runtime.runPromise(Effect.gen(function*() {
    const codes = yield* AuthorizationCodes
    const now = new Date()
    return yield* Effect.forEach(Array.from({ length: count }, (_, i) => i), (i) =>
      codes.issue({
        appId: setup.appId,
        accountUuid: setup.uuids[i % setup.uuids.length]!,
        redirectUri,
        codeChallenge: challenge,
        codeChallengeMethod: "S256",
        scope,
        nonce: null,
        authTime: now,
        now
      }), { concurrency: 10 })
  }))
/** The peer's codes, minted in its process (one Grant each), valid 120 s. */
const mintPeer = async (count: number): Promise<Array<string>> =>
  (await fetch(`http://127.0.0.1:${ports.mint}/codes?count=${count}&challenge=${challenge}`)).json() as Promise<
    Array<string>
  >

const targets: Record<Target["name"], Target> = {
  ours: {
    name: "ours",
    base: `http://127.0.0.1:${ports.ours}`,
    paths: { token: "/v1/oauth/token", userinfo: "/v1/userinfo", introspect: "/v1/oauth/introspect" },
    authorization: basic(setup.appId, setup.secret)
  },
  peer: {
    name: "peer",
    base: `http://127.0.0.1:${ports.peer}`,
    paths: { token: "/token", userinfo: "/me", introspect: "/token/introspection" },
    authorization: basic("bench", peerSecret)
  },
  bare: {
    name: "bare",
    base: `http://127.0.0.1:${ports.bare}`,
    paths: { token: "/v1/oauth/token", userinfo: "/v1/userinfo", introspect: "/v1/oauth/introspect" },
    authorization: basic("bench", "bench")
  }
}
const mint = { ours: mintOurs, peer: mintPeer, bare: async (count: number) => Array.from({ length: count }, () => "x") }

const form = (target: Target, path: string, parameters: Record<string, string>) =>
  fetch(`${target.base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", authorization: target.authorization },
    body: new URLSearchParams(parameters).toString()
  })
const exchange = (target: Target, code: string) =>
  form(target, target.paths.token, { grant_type: "authorization_code", code, redirect_uri: redirectUri, code_verifier: verifier })
const rotate = (target: Target, refreshToken: string) =>
  form(target, target.paths.token, { grant_type: "refresh_token", refresh_token: refreshToken })

interface Tokens {
  readonly access_token: string
  readonly refresh_token: string
}
/** One exchange outside the measurements, checked. */
const exchangeOnce = async (target: Target, code: string) => {
  const response = await exchange(target, code)
  const text = await response.text()
  if (response.status !== 200) throw new Error(`${target.name} code exchange: ${response.status} ${text}`)
  return { tokens: JSON.parse(text) as Tokens, text }
}
const getChecked = async (label: string, response: Promise<Response>) => {
  const answer = await response
  const text = await answer.text()
  if (answer.status !== 200 || text.includes("\"active\":false")) throw new Error(`${label}: ${answer.status} ${text}`)
  return text
}

// Per side: one refresh token per rotation loop, and an access token (of a chain that never rotates)
// for userinfo and introspection; each from an ordinary code exchange.
const prepared: Record<Target["name"], { chains: Array<string>; accessToken: string }> = {
  ours: { chains: [], accessToken: "" },
  peer: { chains: [], accessToken: "" },
  bare: { chains: Array.from({ length: connections }, () => "x"), accessToken: "x" }
}
const sample: Record<"token" | "userinfo" | "introspect", string> = { token: "", userinfo: "", introspect: "" }
for (const name of ["ours", "peer"] as const) {
  const target = targets[name]
  const codes = await mint[name](connections + 1)
  for (const code of codes.slice(0, connections)) {
    prepared[name].chains.push((await exchangeOnce(target, code)).tokens.refresh_token)
  }
  const last = await exchangeOnce(target, codes[connections]!)
  prepared[name].accessToken = last.tokens.access_token
  const userinfo = await getChecked(
    `${name} userinfo`,
    fetch(`${target.base}${target.paths.userinfo}`, { headers: { authorization: `Bearer ${last.tokens.access_token}` } })
  )
  const introspect = await getChecked(
    `${name} introspection`,
    form(target, target.paths.introspect, { token: last.tokens.access_token })
  )
  if (name === "ours") Object.assign(sample, { token: last.text, userinfo, introspect })
}
for (const [key, text] of Object.entries(sample)) writeFileSync(join(work, `${key}.json`), text)
bare = await startServer(join(root, "scripts/bench/servers/bare-oauth.ts"), {
  PORT: String(ports.bare),
  TOKEN_FILE: join(work, "token.json"),
  USERINFO_FILE: join(work, "userinfo.json"),
  INTROSPECT_FILE: join(work, "introspect.json")
})

type Measured = LoadResult & { readonly serverCpuUs: number; readonly postgresCpuUs: number }
/** The measured part of a row, with the CPU per request its server and PostgreSQL spent on it. */
const measure = (name: Target["name"], load: () => Promise<LoadResult>): Promise<Measured> =>
  withCpuPerRequest({ ours, peer, bare }[name]?.pid, seconds, load)

/** Code exchanges: client loops, each sending the next unused code once it has read the last answer. */
const codeExchanges = async (target: Target, codes: ReadonlyArray<string>, run: number) => {
  let next = 0
  return chainLoad({
    workers: connections,
    seconds: run,
    initial: () => undefined,
    send: async () => {
      const code = codes[next++]
      if (code === undefined) throw new Error(`${target.name}: all ${codes.length} codes used; mint more`)
      const response = await exchange(target, code)
      await response.arrayBuffer()
      return { ok: response.status === 200, next: undefined }
    }
  })
}
const exchangeRow = async (name: Target["name"]) => {
  const target = targets[name]
  const perSecond = name === "ours" ? codesPerSecond.ours : codesPerSecond.peer
  await codeExchanges(target, await mint[name](perSecond * warmUpSeconds), warmUpSeconds)
  const codes = await mint[name](perSecond * seconds)
  return measure(name, () => codeExchanges(target, codes, seconds))
}

/** Rotations: each loop follows its own chain, sending the token it holds and keeping the one it gets. */
const rotations = (target: Target, run: number) => {
  const chains = prepared[target.name].chains
  return chainLoad({
    workers: connections,
    seconds: run,
    initial: (worker) => ({ worker, token: chains[worker]! }),
    send: async ({ token, worker }) => {
      const response = await rotate(target, token)
      const body = await response.json() as { refresh_token?: string }
      const next = body.refresh_token ?? token
      chains[worker] = next
      return { ok: response.status === 200, next: { worker, token: next } }
    }
  })
}
const rotationRow = async (name: Target["name"]) => {
  await rotations(targets[name], warmUpSeconds)
  return measure(name, () => rotations(targets[name], seconds))
}

const summary = (result: autocannon.Result): LoadResult => ({
  rps: result.requests.average,
  p50: result.latency.p50,
  p99: result.latency.p99,
  non2xx: result.non2xx + result.errors
})
const cannon = async (name: Target["name"], options: autocannon.Options) => {
  await autocannon({ ...options, connections, duration: warmUpSeconds })
  return measure(name, async () => summary(await autocannon({ ...options, connections, duration: seconds })))
}
const accessTokenOf = (name: Target["name"]) => prepared[name].accessToken
const userinfoRow = (name: Target["name"]) =>
  cannon(name, {
    url: `${targets[name].base}${targets[name].paths.userinfo}`,
    headers: { authorization: `Bearer ${accessTokenOf(name)}` }
  })
const introspectionRow = (name: Target["name"]) =>
  cannon(name, {
    url: `${targets[name].base}${targets[name].paths.introspect}`,
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", authorization: targets[name].authorization },
    body: new URLSearchParams({ token: accessTokenOf(name) }).toString()
  })

/** Our server's work per request, from the code (for the explanation under the table). */
/** The server CPU per request of ours over the peer's, per row, as "2.9× (exchange), …". */
const cpuRatios = (results: ReadonlyArray<{ label: string; byServer: Record<Target["name"], Measured> }>) =>
  results.map(({ byServer, label }) =>
    `${(byServer.ours.serverCpuUs / Math.max(1, byServer.peer.serverCpuUs)).toFixed(1)}× (${label})`
  ).join(", ")

const ourWork = {
  exchange:
    "two statements (the code spent in one UPDATE; then one statement that reads the account as the app sees it and writes the sign-in, its refresh token and grant, the membership and the code's link) and two Ed25519 signatures (access token, ID token)",
  rotation:
    "one statement (claim the token, touch the sign-in, insert the next token, read the app's view of the sign-in) and two signatures",
  read:
    "one SELECT of the sign-in with its account, membership and app (the access token's Ed25519 verification is done once per token and remembered until its exp)"
}

// BENCH_OPERATIONS=userinfo,introspection measures only those rows (for profiling one path); the report is written only for a full run.
const only = process.env["BENCH_OPERATIONS"]?.split(",")
const operations = [
  { key: "exchange", label: "authorization_code exchange", run: exchangeRow },
  { key: "rotation", label: "refresh rotation", run: rotationRow },
  { key: "userinfo", label: "userinfo", run: userinfoRow },
  { key: "introspection", label: "introspection of an access token", run: introspectionRow }
].filter(({ key }) => only === undefined || only.includes(key))
const servers = [
  { name: "ours", label: "accounts (PostgreSQL)" },
  { name: "peer", label: "oidc-provider 9 (in memory)" },
  { name: "bare", label: "bare node:http" }
] as const

try {
  const results: Array<{ label: string; byServer: Record<Target["name"], Measured> }> = []
  for (const operation of operations) {
    const byServer = {} as Record<Target["name"], Measured>
    for (const server of servers) {
      byServer[server.name] = await operation.run(server.name)
      process.stdout.write(`${operation.label} ${server.name} ${JSON.stringify(byServer[server.name])}\n`)
    }
    results.push({ label: operation.label, byServer })
  }
  const ratio = (r: LoadResult, peerResult: LoadResult) => (r.rps / peerResult.rps).toFixed(2)
  const rows = results.flatMap(({ label, byServer }) =>
    servers.map(({ name, label: server }) => {
      const r = byServer[name]
      return `| ${label} | ${server} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${
        ratio(r, byServer.peer)
      } | ${r.serverCpuUs} | ${name === "ours" ? r.postgresCpuUs : "–"} | ${r.non2xx} |`
    })
  )
  const below = results.filter(({ byServer }) => byServer.ours.rps < byServer.peer.rps).map(({ label }) => label)
  if (only === undefined) writeSection(
    join(root, "apps/accounts/docs/benchmarks.md"),
    "oauth",
    `## OAuth for apps: code exchange, rotation, userinfo, introspection (\`npm run bench:oauth\`)

Measured ${new Date().toISOString().slice(0, 10)} on ${machine()} (load average before the run: ${loadBefore}); our database: ${
      databaseUrl ? "PostgreSQL server" : "embedded PGlite"
    }. Servers pinned to core 1, load generator on core 0; each row warms up ${warmUpSeconds} s, then measures ${seconds} s. Peer: panva's oidc-provider 9 with a confidential client (client_secret_basic), authorization_code and refresh_token with rotation, PKCE, userinfo and introspection enabled, on its own in-memory adapter (its MemoryAdapter and LRU store, sized to hold every token of the run: the default store keeps about 1,000 entries and would evict codes minted ahead); its access tokens are opaque (its default for userinfo), ours are signed JWTs. Bare: a bare node:http server answering our JSON for each route from memory, after reading the request body. Code exchange: codes minted beforehand with a PKCE S256 challenge and scope \`${scope}\` (ours through the service's own repositories on the same database, round-robin over ${carbons} Carbons and one fake app; the peer's in its process, one Grant each, with \`offline_access\` so that it issues refresh tokens as we do), each sent once with client_secret_basic, \`redirect_uri\` and \`code_verifier\`; each answer carries an access token, a refresh token and an ID token. Code exchange and rotation: ${connections} client loops (scripts/bench/chainLoad.ts), each sending its next request once it has read the last answer (a code or a refresh token is single use; autocannon prepares requests ahead of answers); rotation chains start from refresh tokens of ordinary code exchanges, each loop following its own. The bare row of these two shows what the same client loops reach against a server that does nothing. Userinfo (\`GET /v1/userinfo\`, the peer's \`/me\`, bearer) and introspection (\`POST /v1/oauth/introspect\`, the peer's \`/token/introspection\`, an access token, Basic): autocannon, ${connections} connections.

| operation | server | req/s | p50 ms | p99 ms | × oidc-provider | server CPU µs/req | PostgreSQL CPU µs/req | non-2xx |
| --- | --- | --- | --- | --- | --- | --- | --- | --- |
${rows.join("\n")}
${
      below.length === 0
        ? "\nAt or above oidc-provider on every row."
        : `
Below oidc-provider on: ${below.join(", ")}. The CPU columns say where: the server's own CPU per request is ${
        cpuRatios(results)
      } the peer's, and PostgreSQL's comes on top of it on the same two cores, where the peer reads and writes a Map and signs only the ID token (its access tokens are opaque). Per request our server pays the Effect HTTP stack, router and conventions (about 4,400 req/s on a route without a query here, see "Where a request's time goes"), and per statement the SQL client, the pg driver and a socket round trip. A code exchange is ${ourWork.exchange}; a rotation ${ourWork.rotation}; userinfo and introspection ${ourWork.read}. What changed since the last run and what is left is under "OAuth: what was done, what is left" below. More in "Why rotation and \`GET /v1/me\` fall short".`
    }`
  )
} finally {
  await Promise.all([stopServer(ours), stopServer(peer), ...(bare === undefined ? [] : [stopServer(bare)])])
  await runtime.dispose()
}
