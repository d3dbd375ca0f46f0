/**
 * `npm run bench:silicon-login`: Silicon sign-in at POST /v1/silicons/login, in one run:
 * - with an STK, which costs one scrypt; scrypt alone is timed in this process for comparison;
 * - with a signed key assertion (Ed25519), each prepared assertion sent once (its jti is single use);
 * - a bare node:http server answering the same Token response: the floor;
 * - whether an unknown id and a wrong STK answer in the same time: one request at a time, the two
 *   kinds interleaved in random order, compared with three two-sample tests.
 * Our server runs as `npm start` runs it, behind a trusted proxy (ACCOUNTS_TRUST_PROXY) so that each
 * request can come from its own X-Forwarded-For address under the 60-per-minute-per-IP limit, on
 * ACCOUNTS_DATABASE_URL (or TEST_DATABASE_URL) when set, else on a fresh embedded database.
 * Writes the figures to apps/accounts/docs/benchmarks.md.
 */
import { SqlClient } from "@effect/sql"
import { hashSecret, randomHex, SCRYPT_PARAMS, verifyAgainstDummy } from "@platform/crypto"
import { Database } from "@platform/database"
import autocannon from "autocannon"
import { Effect, Option, Redacted } from "effect"
import * as jose from "jose"
import { mkdtempSync, writeFileSync } from "node:fs"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { performance } from "node:perf_hooks"
import { AccountsRepo } from "../../apps/accounts/src/accounts/AccountsRepo.ts"
import { AccountsConfigLive } from "../../apps/accounts/src/config.ts"
import { accountsMigrations } from "../../apps/accounts/src/migrations.ts"
import { SiliconsRepo } from "../../apps/accounts/src/silicons/SiliconsRepo.ts"
import { generateStk } from "../../apps/accounts/src/silicons/stk.ts"
import { chainLoad, type LoadResult } from "./chainLoad.ts"
import { machine, writeSection } from "./report.ts"
import { startServer, stopServer } from "./servers/spawn.ts"

const root = join(import.meta.dirname, "..", "..")
const seconds = Number(process.env["BENCH_SECONDS"] ?? 10)
const warmUpSeconds = Math.min(3, seconds)
const connections = 50
// More than the libuv pool's 4 threads keeps scrypt busy; more loops would only queue.
const stkWorkers = 8
const samples = 300 // per kind in the timing comparison
const timingWarmUp = 10 // per kind, not counted
const wrongPerSilicon = 8 // the tenth wrong STK in a row would lock (423)
const alpha = 0.01
const ports = { ours: 4186, bare: 4188 }
const work = mkdtempSync(join(tmpdir(), "bench-silicon-login-"))
const dataDir = join(work, "accounts")
const databaseUrl = process.env["ACCOUNTS_DATABASE_URL"] ?? process.env["TEST_DATABASE_URL"]
const base = `http://127.0.0.1:${ports.ours}`
const loadBefore = loadavg().map((l) => l.toFixed(1)).join(", ")

const ours = await startServer(join(root, "apps/accounts/src/main.ts"), {
  ACCOUNTS_PORT: String(ports.ours),
  ACCOUNTS_DATA_DIR: dataDir,
  ACCOUNTS_TRUST_PROXY: "true",
  ...(databaseUrl ? { ACCOUNTS_DATABASE_URL: databaseUrl } : {})
}, `${base}/readyz`)

// Active Silicons in one Carbon's custody, through the service's own repositories on the same database:
// one per STK load loop, and enough for the wrong-STK samples. They share one STK hash (hashing is not
// what is measured; every sign-in still runs its own scrypt against it).
const stk = generateStk()
const timingSilicons = Math.ceil((samples + timingWarmUp) / wrongPerSilicon)
const siliconIds = await Effect.runPromise(
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const accounts = yield* AccountsRepo
    const silicons = yield* SiliconsRepo
    const handle = `bench${Date.now().toString(36)}`
    const custodian = yield* Effect.orDie(
      accounts.createCarbon({ id: `c:${handle}`, displayName: "Bench Mark", email: `${handle}@example.com` })
    )
    const stkHash = yield* hashSecret(stk)
    return yield* Effect.forEach(Array.from({ length: stkWorkers + timingSilicons }), () => {
      const handle = `s${randomHex(12)}`
      return sql.withTransaction(silicons.insert({
        handle,
        displayName: "Bench Silicon",
        timezone: "UTC",
        pfpUrl: null,
        stkHash,
        webhookUrl: null,
        webhookSecret: null,
        custodianUuid: custodian.uuid,
        at: new Date()
      })).pipe(Effect.orDie, Effect.as(`si:${handle}`))
    })
  }).pipe(
    Effect.provide([AccountsRepo.Default, SiliconsRepo.Default]),
    Effect.provide(AccountsConfigLive),
    Effect.provide(Database.layer({
      url: databaseUrl === undefined ? Option.none() : Option.some(Redacted.make(databaseUrl)),
      dataDir,
      migrations: accountsMigrations
    })),
    Effect.scoped
  )
)
const loadIds = siliconIds.slice(0, stkWorkers)
const timingIds = siliconIds.slice(stkWorkers)

let requests = 0
/** Each request from its own address, so the per-IP limit never answers 429. */
const login = (body: object) => {
  const n = ++requests
  return fetch(`${base}/v1/silicons/login`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-forwarded-for": `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`
    },
    body: JSON.stringify(body)
  })
}

// Each load-generating Silicon registers a key, with the bearer of an ordinary STK sign-in.
type PrivateKey = Awaited<ReturnType<typeof jose.generateKeyPair>>["privateKey"]
const signers: Array<{ readonly id: string; readonly privateKey: PrivateKey }> = []
let tokenResponse = ""
for (const id of loadIds) {
  const signedIn = await login({ id, stk })
  tokenResponse = await signedIn.text()
  if (signedIn.status !== 200) throw new Error(`STK sign-in of ${id}: ${signedIn.status} ${tokenResponse}`)
  const { privateKey, publicKey } = await jose.generateKeyPair("EdDSA")
  const added = await fetch(`${base}/v1/me/keys`, {
    method: "POST",
    headers: { authorization: `Bearer ${JSON.parse(tokenResponse).access_token}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "bench key", public_key: await jose.exportJWK(publicKey) })
  })
  if (added.status !== 201) throw new Error(`key of ${id}: ${added.status} ${await added.text()}`)
  signers.push({ id, privateKey })
}

// One assertion per request, signed ahead, more than the route can take in the time.
const assertions: Array<string> = []
const iat = Math.floor(Date.now() / 1000)
for (let i = 0; i < 1000 * (seconds + warmUpSeconds); i++) {
  const signer = signers[i % signers.length]!
  assertions.push(
    await new jose.SignJWT({ jti: `bench-${randomHex(16)}` })
      .setProtectedHeader({ alg: "EdDSA" })
      .setIssuer(signer.id)
      .setSubject(signer.id)
      .setAudience(`${base}/v1/oauth/token`)
      .setIssuedAt(iat)
      .setExpirationTime(iat + 300)
      .sign(signer.privateKey)
  )
}

writeFileSync(join(work, "token.json"), tokenResponse)
const bare = await startServer(join(root, "scripts/bench/servers/bare.ts"), {
  PORT: String(ports.bare),
  DISCOVERY_FILE: join(work, "token.json"),
  JWKS_FILE: join(work, "token.json")
})

/** Every request answered and read before the loop sends its next; a warm-up first, not counted. */
const load = async (workers: number, send: (worker: number) => Promise<Response>) => {
  const run = (duration: number) =>
    chainLoad({
      workers,
      seconds: duration,
      initial: (worker) => worker,
      send: async (worker) => {
        const response = await send(worker)
        await response.arrayBuffer()
        return { ok: response.status === 200, next: worker }
      }
    })
  await run(warmUpSeconds)
  return run(seconds)
}

/** The floor, measured with autocannon as in the other sections: the fetch loops above cannot reach it. */
const bareLoad = async () => {
  const options = {
    url: `http://127.0.0.1:${ports.bare}/.well-known/openid-configuration`,
    connections,
    method: "POST" as const,
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ id: loadIds[0], stk })
  }
  await autocannon({ ...options, duration: warmUpSeconds })
  const result = await autocannon({ ...options, duration: seconds })
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx + result.errors }
}

let nextAssertion = 0
const takeAssertion = () => {
  const assertion = assertions[nextAssertion++]
  if (assertion === undefined) throw new Error("ran out of prepared assertions: sign more")
  return assertion
}

/** scrypt alone, as the route runs it, in this process: one at a time, and as many as the libuv pool takes. */
const scryptAlone = async () => {
  const once = () => Effect.runPromise(verifyAgainstDummy(stk))
  const single: Array<number> = []
  for (let i = 0; i < 21; i++) {
    const begin = performance.now()
    await once()
    if (i > 0) single.push(performance.now() - begin) // the first one also makes the dummy hash
  }
  const batch = 40
  const begin = performance.now()
  await Promise.all(Array.from({ length: batch }, once))
  return { median: median(single), perSecond: batch / ((performance.now() - begin) / 1000) }
}

// Statistics for the timing comparison, written out here to need no dependency.
const sorted = (xs: ReadonlyArray<number>) => [...xs].sort((a, b) => a - b)
const quantile = (xs: ReadonlyArray<number>, q: number) => {
  const s = sorted(xs)
  const at = (s.length - 1) * q
  return s[Math.floor(at)]! + (s[Math.ceil(at)]! - s[Math.floor(at)]!) * (at - Math.floor(at))
}
const median = (xs: ReadonlyArray<number>) => quantile(xs, 0.5)
const mean = (xs: ReadonlyArray<number>) => xs.reduce((sum, x) => sum + x, 0) / xs.length
const variance = (xs: ReadonlyArray<number>) => {
  const m = mean(xs)
  return xs.reduce((sum, x) => sum + (x - m) ** 2, 0) / (xs.length - 1)
}

/** Two-sided p of a standard normal z (erf by Abramowitz & Stegun 7.1.26, error below 1.5e-7). */
const normalP = (z: number) => {
  const t = 1 / (1 + 0.3275911 * Math.abs(z) / Math.SQRT2)
  const poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
  return poly * Math.exp(-z * z / 2)
}

/** Mann–Whitney U with average ranks for ties, normal approximation. */
const mannWhitney = (a: ReadonlyArray<number>, b: ReadonlyArray<number>) => {
  const all = [...a.map((v) => ({ v, inA: true })), ...b.map((v) => ({ v, inA: false }))].sort((x, y) => x.v - y.v)
  let rankSumA = 0
  for (let i = 0; i < all.length;) {
    let j = i
    while (j < all.length && all[j]!.v === all[i]!.v) j++
    for (let k = i; k < j; k++) if (all[k]!.inA) rankSumA += (i + j + 1) / 2
    i = j
  }
  const u = rankSumA - a.length * (a.length + 1) / 2
  const z = (u - a.length * b.length / 2) / Math.sqrt(a.length * b.length * (a.length + b.length + 1) / 12)
  return { u, z, p: normalP(z) }
}

/**
 * Welch's t on 10 %-trimmed samples with winsorized variances (Yuen's test): robust to the long tail
 * of latencies. With df in the hundreds, t's distribution is the normal to three digits.
 */
const yuen = (a: ReadonlyArray<number>, b: ReadonlyArray<number>) => {
  const part = (xs: ReadonlyArray<number>) => {
    const s = sorted(xs)
    const k = Math.floor(s.length * 0.1)
    const h = s.length - 2 * k
    const winsorized = s.map((x) => Math.min(Math.max(x, s[k]!), s[s.length - 1 - k]!))
    return { trimmedMean: mean(s.slice(k, s.length - k)), d: (s.length - 1) * variance(winsorized) / (h * (h - 1)), h }
  }
  const pa = part(a)
  const pb = part(b)
  const t = (pa.trimmedMean - pb.trimmedMean) / Math.sqrt(pa.d + pb.d)
  const df = (pa.d + pb.d) ** 2 / (pa.d ** 2 / (pa.h - 1) + pb.d ** 2 / (pb.h - 1))
  return { t, df, p: normalP(t) }
}

/** Two-sample Kolmogorov–Smirnov, asymptotic p (Numerical Recipes' probks). */
const kolmogorovSmirnov = (a: ReadonlyArray<number>, b: ReadonlyArray<number>) => {
  const sa = sorted(a)
  const sb = sorted(b)
  let i = 0
  let j = 0
  let d = 0
  while (i < sa.length && j < sb.length) {
    const x = Math.min(sa[i]!, sb[j]!)
    while (i < sa.length && sa[i]! <= x) i++
    while (j < sb.length && sb[j]! <= x) j++
    d = Math.max(d, Math.abs(i / sa.length - j / sb.length))
  }
  const ne = Math.sqrt(sa.length * sb.length / (sa.length + sb.length))
  const lambda = (ne + 0.12 + 0.11 / ne) * d
  let p = 0
  for (let k = 1; k <= 100; k++) p += 2 * (-1) ** (k - 1) * Math.exp(-2 * k * k * lambda * lambda)
  return { d, p: lambda < 0.3 ? 1 : Math.min(1, Math.max(0, p)) }
}

/** 95 % bootstrap interval of statistic(a) − statistic(b). */
const bootstrap = (a: ReadonlyArray<number>, b: ReadonlyArray<number>, statistic: (xs: ReadonlyArray<number>) => number) => {
  const resample = (xs: ReadonlyArray<number>) => xs.map(() => xs[Math.floor(Math.random() * xs.length)]!)
  const differences = Array.from({ length: 2000 }, () => statistic(resample(a)) - statistic(resample(b)))
  return [quantile(differences, 0.025), quantile(differences, 0.975)] as const
}

/**
 * One request at a time, unknown ids and wrong STKs in random order: a fresh unknown id each time,
 * and each Silicon's wrong STKs kept under the lock. Every answer must be 401 invalid_credentials.
 */
const timing = async () => {
  const wrongIds = timingIds.flatMap((id) => Array.from({ length: wrongPerSilicon }, () => id))
  const kinds = Array.from({ length: samples + timingWarmUp }, () => ["unknown", "wrong"] as const).flat()
  const order = shuffle(kinds)
  const latencies = { unknown: [] as Array<number>, wrong: [] as Array<number> }
  const seen = { unknown: 0, wrong: 0 }
  let wrongAt = 0
  for (const kind of order) {
    const id = kind === "unknown" ? `si:s${randomHex(12)}` : wrongIds[wrongAt++]!
    const begin = performance.now()
    const response = await login({ id, stk: generateStk() })
    const body = await response.json() as { error?: { code?: string } }
    const elapsed = performance.now() - begin
    if (response.status !== 401 || body.error?.code !== "invalid_credentials") {
      throw new Error(`${kind} ${id}: ${response.status} ${JSON.stringify(body)}`)
    }
    if (++seen[kind] > timingWarmUp) latencies[kind].push(elapsed)
  }
  return latencies
}

const shuffle = <A>(xs: Array<A>): Array<A> => {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1))
    ;[xs[i], xs[j]] = [xs[j]!, xs[i]!]
  }
  return xs
}

let results: { stk: LoadResult; assertion: LoadResult; bare: LoadResult }
let scrypt: { median: number; perSecond: number }
let latencies: { unknown: Array<number>; wrong: Array<number> }
try {
  scrypt = await scryptAlone()
  results = {
    stk: await load(stkWorkers, (worker) => login({ id: loadIds[worker]!, stk })),
    assertion: await load(connections, () => login({ assertion: takeAssertion() })),
    bare: await bareLoad()
  }
  for (const [name, r] of Object.entries(results)) process.stdout.write(`${name} ${JSON.stringify(r)}\n`)
  latencies = await timing()
} finally {
  await Promise.all([stopServer(ours), stopServer(bare)])
}

const { unknown, wrong } = latencies
const tests = { mannWhitney: mannWhitney(wrong, unknown), yuen: yuen(wrong, unknown), ks: kolmogorovSmirnov(wrong, unknown) }
process.stdout.write(`scrypt ${JSON.stringify(scrypt)}\ntests ${JSON.stringify(tests)}\n`)
const same = Object.values(tests).every((test) => test.p >= alpha)
const ms = (x: number) => x.toFixed(1)
const interval = ([low, high]: readonly [number, number]) => `${ms(low)} to ${ms(high)} ms`
const row = (label: string, r: LoadResult) =>
  `| ${label} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${(r.rps / results.bare.rps).toPrecision(2)} | ${r.non2xx} |`
const sampleRow = (label: string, xs: ReadonlyArray<number>) =>
  `| ${label} | ${xs.length} | ${ms(median(xs))} | ${ms(mean(xs))} | ${ms(quantile(xs, 0.1))} | ${ms(quantile(xs, 0.9))} | ${ms(quantile(xs, 0.99))} |`

writeSection(
  join(root, "apps/accounts/docs/benchmarks.md"),
  "silicon-login",
  `## Silicon sign-in, \`POST /v1/silicons/login\` (\`npm run bench:silicon-login\`)

Measured ${new Date().toISOString().slice(0, 10)} on ${machine()} (load average before the run: ${loadBefore}); database: ${
    databaseUrl ? "PostgreSQL server" : "embedded PGlite"
  }. Server pinned to core 1, load generator on core 0. Client loops (scripts/bench/chainLoad.ts) for ${seconds} s after a ${warmUpSeconds} s warm-up, each sending its next request once it has read the last answer, every request from its own \`X-Forwarded-For\` address (server behind a trusted proxy), so the 60-per-minute-per-IP limit never answers. STK: ${stkWorkers} loops, one Silicon each. Assertion: ${connections} loops, each request with its own assertion signed ahead (Ed25519, its own single-use jti), never sent twice. Bare: a bare node:http server answering a Token response from memory to the same JSON posted by autocannon (${connections} connections, ${seconds} s after the same warm-up; the client loops, built on fetch, cannot reach it); the ratio is to that floor.

| operation | req/s | p50 ms | p99 ms | × bare | non-2xx |
| --- | --- | --- | --- | --- | --- |
${row("accounts: sign-in with an STK", results.stk)}
${row("accounts: sign-in with a key assertion", results.assertion)}
${row("bare node:http, same JSON", results.bare)}

An STK sign-in is scrypt-bound: scrypt N=2^${Math.log2(SCRYPT_PARAMS.N)}, r=${SCRYPT_PARAMS.r}, p=${SCRYPT_PARAMS.p} (128·N·r = ${
    128 * SCRYPT_PARAMS.N * SCRYPT_PARAMS.r / 2 ** 20
  } MiB each) takes ${ms(scrypt.median)} ms one at a time (median of 20, in the load generator's process on its one core), and Node's libuv pool (4 threads) sharing one core gets through ${
    scrypt.perSecond.toFixed(1)
  } per second, against ${Math.round(results.stk.rps)} STK sign-ins per second on the server's one core. A key assertion costs one Ed25519 verification and no scrypt.

### Unknown id and wrong STK: same answer, same time

${samples} requests of each kind, one at a time, in random order after ${timingWarmUp} of each not counted: an unknown \`si:\` id (a fresh one each time, so no lock builds up) and a real Silicon's id with a wrong STK (${wrongPerSilicon} at most per Silicon, under the lock of ten). Every answer was 401 invalid_credentials. Client-side latency, from sending to the whole answer read:

| sample | n | median ms | mean ms | p10 ms | p90 ms | p99 ms |
| --- | --- | --- | --- | --- | --- | --- |
${sampleRow("unknown id", unknown)}
${sampleRow("wrong STK", wrong)}

Wrong STK − unknown id: medians ${ms(median(wrong) - median(unknown))} ms (95 % bootstrap interval ${
    interval(bootstrap(wrong, unknown, median))
  }), means ${ms(mean(wrong) - mean(unknown))} ms (${interval(bootstrap(wrong, unknown, mean))}).

| two-sample test | statistic | p |
| --- | --- | --- |
| Mann–Whitney U, normal approximation | U = ${tests.mannWhitney.u}, z = ${tests.mannWhitney.z.toFixed(2)} | ${tests.mannWhitney.p.toFixed(3)} |
| Welch's t on 10 % trimmed samples (Yuen) | t = ${tests.yuen.t.toFixed(2)}, df = ${Math.round(tests.yuen.df)} | ${tests.yuen.p.toFixed(3)} |
| Kolmogorov–Smirnov | D = ${tests.ks.d.toFixed(3)} | ${tests.ks.p.toFixed(3)} |

Verdict at α = ${alpha}: ${
    same
      ? "no test tells the two apart; the timing of an unknown id and of a wrong STK is indistinguishable within noise."
      : "at least one test tells the two apart."
  }`
)
process.stdout.write(`written to apps/accounts/docs/benchmarks.md\n`)
