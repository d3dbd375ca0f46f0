/**
 * `npm run bench:oauth`: the OAuth endpoints an app calls, side by side in one run on our server,
 * panva's oidc-provider (configured for the same grants) on PostgreSQL and in memory, and a bare
 * node:http server (lineup.ts):
 * - authorization_code exchange at the token endpoint (codes minted beforehand, each sent once);
 * - refresh-token rotation of an app's refresh token (each loop follows its own chain);
 * - userinfo with an app access token;
 * - introspection of an app access token by the app.
 * Writes the table to apps/accounts/docs/benchmarks.md.
 */
import { randomToken } from "@platform/crypto"
import { Effect, Layer, ManagedRuntime, Option } from "effect"
import { createHash, randomBytes } from "node:crypto"
import { mkdtempSync, writeFileSync } from "node:fs"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { AccountsRepo } from "../../apps/accounts/src/accounts/AccountsRepo.ts"
import { AppsRepo } from "../../apps/accounts/src/apps/AppsRepo.ts"
import { createFakeApp } from "../../apps/accounts/src/apps/FakeApps.ts"
import { AuthorizationCodes } from "../../apps/accounts/src/oauth/AuthorizationCodes.ts"
import { chainLoad, rotationChains } from "./chainLoad.ts"
import {
  cannon,
  connections,
  lineupLegend,
  lineupTable,
  makeLineup,
  type Measured,
  measureRows,
  type Peer,
  peers,
  root,
  type Row,
  seconds,
  type Side,
  sides
} from "./lineup.ts"
import { ourDatabase } from "./ourDatabase.ts"
import { machine, writeSection } from "./report.ts"

const warmUpSeconds = Math.min(3, seconds)
const carbons = 100 // codes go round-robin over them, as concurrent sign-ins are of different people
// Codes minted ahead per second of load, above what each server can exchange (a run that used them all fails).
const codesPerSecond: Record<Side, number> = { ours: 1500, peerPg: 1500, peerMemory: 4000, bare: 4000 }
const ports: Record<Side, number> = { ours: 4206, peerMemory: 4207, bare: 4208, peerPg: 4210 }
const mintPorts: Record<Peer, number> = { peerMemory: 4209, peerPg: 4211 }
const work = mkdtempSync(join(tmpdir(), "bench-oauth-"))
const dataDir = join(work, "accounts")
const redirectUri = "https://bench.example/callback"
const scope = "openid profile email"
const verifier = randomBytes(32).toString("base64url")
const challenge = createHash("sha256").update(verifier).digest("base64url")
const loadBefore = loadavg().map((l) => l.toFixed(1)).join(", ")
const peerSecret = randomToken("bench_")
const lineup = makeLineup()
// A fake app and Carbons, and later the codes, through the service's own repositories on the same database.
const runtime = ManagedRuntime.make(
  Layer.mergeAll(AccountsRepo.Default, AppsRepo.Default, AuthorizationCodes.Default).pipe(
    Layer.provideMerge(ourDatabase(dataDir))
  )
)

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`
const isPeer = (side: Side): side is Peer => side === "peerPg" || side === "peerMemory"
const ourPaths = { token: "/v1/oauth/token", userinfo: "/v1/userinfo", introspect: "/v1/oauth/introspect" }
const peerPaths = { token: "/token", userinfo: "/me", introspect: "/token/introspection" }

interface Target {
  readonly side: Side
  readonly base: string
  readonly paths: typeof ourPaths
  readonly authorization: string
}
const targetOf = (side: Side, ourApp: { readonly appId: string; readonly secret: string }): Target => ({
  side,
  base: `http://127.0.0.1:${ports[side]}`,
  paths: isPeer(side) ? peerPaths : ourPaths,
  authorization: side === "ours" ? basic(ourApp.appId, ourApp.secret) : basic("bench", isPeer(side) ? peerSecret : "bench")
})

const form = (target: Target, path: string, parameters: Record<string, string>) =>
  fetch(`${target.base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", authorization: target.authorization },
    body: new URLSearchParams(parameters).toString()
  })
const exchange = (target: Target, code: string) =>
  form(target, target.paths.token, { grant_type: "authorization_code", code, redirect_uri: redirectUri, code_verifier: verifier })
const rotate = (target: Target) => (refreshToken: string) =>
  form(target, target.paths.token, { grant_type: "refresh_token", refresh_token: refreshToken })

interface Tokens {
  readonly access_token: string
  readonly refresh_token: string
}
/** One exchange outside the measurements, checked. */
const exchangeOnce = async (target: Target, code: string) => {
  const response = await exchange(target, code)
  const text = await response.text()
  if (response.status !== 200) throw new Error(`${target.side} code exchange: ${response.status} ${text}`)
  return { tokens: JSON.parse(text) as Tokens, text }
}
const getChecked = async (label: string, response: Promise<Response>) => {
  const answer = await response
  const text = await answer.text()
  if (answer.status !== 200 || text.includes("\"active\":false")) throw new Error(`${label}: ${answer.status} ${text}`)
  return text
}

/** Code exchanges: client loops, each sending the next unused code once it has read the last answer. */
const codeExchanges = (target: Target, codes: ReadonlyArray<string>, run: number) => {
  let next = 0
  return chainLoad({
    workers: connections,
    seconds: run,
    initial: () => undefined,
    send: async () => {
      const code = codes[next++]
      if (code === undefined) throw new Error(`${target.side}: all ${codes.length} codes used; mint more`)
      const response = await exchange(target, code)
      await response.arrayBuffer()
      return { ok: response.status === 200, next: undefined }
    }
  })
}

/** Our server's work per request, from the code (for the explanation under the table). */
const ourWork = {
  exchange:
    "one statement (the code spent and checked against the request's client, redirect_uri and PKCE verifier, and when it fits, the account read as the app sees it and the sign-in, its refresh token and grant, the membership and the code's link written, in one commit) and two Ed25519 signatures (access token, ID token)",
  rotation:
    "one statement (claim the token, touch the sign-in, insert the next token, read the app's view of the sign-in) and two signatures",
  read:
    "read the sign-in with its account, membership and app from an exact per-process cache (a fence shared with the lookups waiting together, then memory; one SELECT on a miss), and the access token's Ed25519 verification is done once per token and remembered until its exp"
}

try {
  await lineup.startOurs(ports.ours, dataDir)
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
  await lineup.startPeers("scripts/bench/servers/oidc-provider-oauth.ts", (peer) => ({
    PORT: String(ports[peer]),
    MINT_PORT: String(mintPorts[peer]),
    CLIENT_SECRET: peerSecret,
    REDIRECT_URI: redirectUri
  }))
  const target = (side: Side) => targetOf(side, setup)

  /** Our codes, as the hosted flow mints them at the end of a sign-in (PKCE S256), valid 120 s. */
  const mintOurs = (count: number) =>
    runtime.runPromise(Effect.gen(function*() {
      const codes = yield* AuthorizationCodes
      const now = new Date()
      return yield* Effect.forEach(Array.from({ length: count }, (_, i) => i), (i) =>
        codes.issue({
          appId: setup.appId,
          accountUuid: setup.uuids[i % setup.uuids.length] ?? "",
          redirectUri,
          codeChallenge: challenge,
          codeChallengeMethod: "S256",
          scope,
          nonce: null,
          authTime: now,
          now
        }), { concurrency: 10 })
    }))
  /** A peer's codes, minted in its process (one Grant each), valid 120 s; the bare server takes anything. */
  const mint = async (side: Side, count: number): Promise<ReadonlyArray<string>> => {
    if (side === "ours") return mintOurs(count)
    if (!isPeer(side)) return Array.from({ length: count }, () => "x")
    const response = await fetch(`http://127.0.0.1:${mintPorts[side]}/codes?count=${count}&challenge=${challenge}`)
    return response.json() as Promise<Array<string>>
  }

  // Per side: one refresh token per rotation loop, and an access token (of a chain that never rotates)
  // for userinfo and introspection; each from an ordinary code exchange, checked.
  const chains: Partial<Record<Side, Array<string>>> = { bare: Array.from({ length: connections }, () => "x") }
  const accessTokens: Partial<Record<Side, string>> = { bare: "x" }
  for (const side of ["ours", ...peers] as const) {
    const codes = await mint(side, connections + 1)
    const sideChains: Array<string> = []
    for (const code of codes.slice(0, connections)) sideChains.push((await exchangeOnce(target(side), code)).tokens.refresh_token)
    chains[side] = sideChains
    const last = await exchangeOnce(target(side), codes[connections] ?? "")
    accessTokens[side] = last.tokens.access_token
    const { base, paths } = target(side)
    const userinfo = await getChecked(
      `${side} userinfo`,
      fetch(`${base}${paths.userinfo}`, { headers: { authorization: `Bearer ${last.tokens.access_token}` } })
    )
    const introspect = await getChecked(
      `${side} introspection`,
      form(target(side), paths.introspect, { token: last.tokens.access_token })
    )
    if (side === "ours") {
      for (const [key, text] of Object.entries({ token: last.text, userinfo, introspect })) {
        writeFileSync(join(work, `${key}.json`), text)
      }
    }
  }
  await lineup.startBare("scripts/bench/servers/bare-oauth.ts", {
    PORT: String(ports.bare),
    TOKEN_FILE: join(work, "token.json"),
    USERINFO_FILE: join(work, "userinfo.json"),
    INTROSPECT_FILE: join(work, "introspect.json")
  })

  const exchangeRow = async (side: Side) => {
    await codeExchanges(target(side), await mint(side, codesPerSecond[side] * warmUpSeconds), warmUpSeconds)
    const codes = await mint(side, codesPerSecond[side] * seconds)
    return lineup.measure(side, (duration) => codeExchanges(target(side), codes, duration))
  }
  const rotationRow = (side: Side) =>
    lineup.measure(side, (duration) => rotationChains(chains[side] ?? [], duration, rotate(target(side))), warmUpSeconds)
  const userinfoRow = (side: Side) => {
    const { base, paths } = target(side)
    return lineup.measure(side, (duration) =>
      cannon({
        url: `${base}${paths.userinfo}`,
        headers: { authorization: `Bearer ${accessTokens[side] ?? ""}` }
      }, duration), warmUpSeconds)
  }
  const introspectionRow = (side: Side) => {
    const { base, paths, authorization } = target(side)
    return lineup.measure(side, (duration) =>
      cannon({
        url: `${base}${paths.introspect}`,
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", authorization },
        body: new URLSearchParams({ token: accessTokens[side] ?? "" }).toString()
      }, duration), warmUpSeconds)
  }

  // BENCH_OPERATIONS=userinfo,introspection measures only those rows (for profiling one path); the report is written only for a full run.
  const only = process.env["BENCH_OPERATIONS"]?.split(",")
  const rows = await measureRows([
    { key: "exchange", label: "authorization_code exchange", run: exchangeRow },
    { key: "rotation", label: "refresh rotation", run: rotationRow },
    { key: "userinfo", label: "userinfo", run: userinfoRow },
    { key: "introspection", label: "introspection of an access token", run: introspectionRow }
  ].filter(({ key }) => only === undefined || only.includes(key)))

  // The peer to meet: on PostgreSQL, as we are, when there is a PostgreSQL server.
  const fair: Peer = sides.includes("peerPg") ? "peerPg" : "peerMemory"
  const fairLabel = fair === "peerPg" ? "oidc-provider on PostgreSQL" : "oidc-provider in memory"
  const of = (row: Row, side: Side): Measured | undefined => row.results[side]
  const below = rows.filter((row) => (of(row, "ours")?.rps ?? 0) < (of(row, fair)?.rps ?? 0))
  const cpuRatios = below.map((row) =>
    `${((of(row, "ours")?.serverCpuUs ?? 0) / Math.max(1, of(row, fair)?.serverCpuUs ?? 0)).toFixed(1)}× (${row.label})`
  ).join(", ")
  if (only === undefined) writeSection(
    join(root, "apps/accounts/docs/benchmarks.md"),
    "oauth",
    `## OAuth for apps: code exchange, rotation, userinfo, introspection (\`npm run bench:oauth\`)

Measured ${
      new Date().toISOString().slice(0, 10)
    } on ${machine()} (load average before the run: ${loadBefore}). Each row warms up ${warmUpSeconds} s, then measures ${seconds} s. Peer: panva's oidc-provider 9 with a confidential client (client_secret_basic), authorization_code and refresh_token with rotation, PKCE, userinfo and introspection enabled; its access tokens are opaque (its default for userinfo, so userinfo and introspection read them from its store), ours are signed JWTs. Bare: a bare node:http server answering our JSON for each route from memory, after reading the request body. Code exchange: codes minted beforehand with a PKCE S256 challenge and scope \`${scope}\` (ours through the service's own repositories on the same database, round-robin over ${carbons} Carbons and one fake app; the peer's in its process, one Grant each, with \`offline_access\` so that it issues refresh tokens as we do), each sent once with client_secret_basic, \`redirect_uri\` and \`code_verifier\`; each answer carries an access token, a refresh token and an ID token. Code exchange and rotation: ${connections} client loops (scripts/bench/chainLoad.ts), each sending its next request once it has read the last answer (a code or a refresh token is single use; autocannon prepares requests ahead of answers); rotation chains start from refresh tokens of ordinary code exchanges, each loop following its own. The bare column of these two shows what the same client loops reach against a server that does nothing. Userinfo (\`GET /v1/userinfo\`, the peer's \`/me\`, bearer) and introspection (\`POST /v1/oauth/introspect\`, the peer's \`/token/introspection\`, an access token, Basic): autocannon, ${connections} connections.

${lineupLegend()}

${lineupTable(rows)}
${
      below.length === 0
        ? `\nAt or above ${fairLabel} on every row.`
        : `
Below ${fairLabel} on: ${below.map((row) => row.label).join(", ")}. Our server's own CPU per request there is ${cpuRatios} the peer's. Per request our server pays the Effect HTTP stack, router and conventions (see "Where a request's time goes"), and per statement the SQL client, the pg driver and a socket round trip. A code exchange is ${ourWork.exchange}; a rotation ${ourWork.rotation}; userinfo and introspection ${ourWork.read}. What changed since the last run and what is left is under "OAuth: what was done, what is left" below. More in "\`GET /v1/me\` and rotation".`
    }`
  )
} finally {
  await lineup.close()
  await runtime.dispose()
}
