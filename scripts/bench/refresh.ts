/**
 * `npm run bench:refresh`: refresh-token rotation and an authenticated account read, side by side
 * in one run on our server, panva's oidc-provider on PostgreSQL and in memory, and a bare node:http
 * server (lineup.ts):
 * - rotation: every request spends a fresh single-use refresh token and gets the next one (each
 *   client loop follows its own chain); ours at POST /v1/oauth/token, the peer's at /token;
 * - our GET /v1/me with a bearer (signature, sign-in lookup, account read); the peer's userinfo
 *   (/me) with its access token.
 * Writes the table to apps/accounts/docs/benchmarks.md.
 */
import { Effect } from "effect"
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { AccountsRepo } from "../../apps/accounts/src/accounts/AccountsRepo.ts"
import { SigninsRepo } from "../../apps/accounts/src/oauth/SigninsRepo.ts"
import { rotationChains } from "./chainLoad.ts"
import {
  cannon,
  connections,
  lineupLegend,
  lineupTable,
  makeLineup,
  measureRows,
  peers,
  root,
  seconds,
  type Side
} from "./lineup.ts"
import { ourDatabase } from "./ourDatabase.ts"
import { machine, writeSection } from "./report.ts"

const ports: Record<Side, number> = { ours: 4196, peerMemory: 4197, bare: 4198, peerPg: 4199 }
const work = mkdtempSync(join(tmpdir(), "bench-refresh-"))
const dataDir = join(work, "accounts")
const lineup = makeLineup()

const base = (side: Side) => `http://127.0.0.1:${ports[side]}`
const isPeer = (side: Side) => side === "peerPg" || side === "peerMemory"
// Ours and bare: our routes and our CLI's public client; the peers: theirs, and their public client.
const routes = (side: Side) =>
  isPeer(side)
    ? { token: "/token", me: "/me", clientId: "bench" }
    : { token: "/v1/oauth/token", me: "/v1/me", clientId: "accounts" }
const rotate = (side: Side) => (refreshToken: string) =>
  fetch(`${base(side)}${routes(side).token}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "refresh_token", client_id: routes(side).clientId, refresh_token: refreshToken })
      .toString()
  })

/** One rotation of a side's first chain, outside the measurements, checked: its answer holds the bearer for the reads. */
const rotateFirst = async (side: Side, chains: Array<string>) => {
  const response = await rotate(side)(chains[0] ?? "")
  const text = await response.text()
  if (response.status !== 200) throw new Error(`${side} refresh: ${response.status} ${text}`)
  const tokens = JSON.parse(text) as { access_token: string; refresh_token: string }
  chains[0] = tokens.refresh_token
  return { text, accessToken: tokens.access_token }
}

try {
  await lineup.startOurs(ports.ours, dataDir)
  // One Carbon and one sign-in per client loop, made through the service's own repositories.
  const ourChains = await Effect.runPromise(
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
      Effect.provide(ourDatabase(dataDir)),
      Effect.scoped
    )
  )
  const chains: Partial<Record<Side, Array<string>>> = { ours: ourChains }
  const bearers: Partial<Record<Side, string>> = {}
  const ourFirst = await rotateFirst("ours", ourChains)
  bearers.ours = ourFirst.accessToken
  writeFileSync(join(work, "token.json"), ourFirst.text)
  const me = await (await fetch(`${base("ours")}/v1/me`, { headers: { authorization: `Bearer ${bearers.ours}` } })).text()
  writeFileSync(join(work, "me.json"), me)

  await lineup.startPeers("scripts/bench/servers/oidc-provider-refresh.ts", (peer) => ({
    PORT: String(ports[peer]),
    COUNT: String(connections),
    TOKENS_FILE: join(work, `${peer}-tokens.json`)
  }))
  for (const peer of peers) {
    const peerChains: Array<string> = JSON.parse(readFileSync(join(work, `${peer}-tokens.json`), "utf8"))
    chains[peer] = peerChains
    bearers[peer] = (await rotateFirst(peer, peerChains)).accessToken
  }
  await lineup.startBare("scripts/bench/servers/bare-oauth.ts", {
    PORT: String(ports.bare),
    TOKEN_FILE: join(work, "token.json"),
    ME_FILE: join(work, "me.json")
  })
  chains.bare = Array.from({ length: connections }, () => "x")
  bearers.bare = "x"

  const rows = await measureRows([
    {
      label: "refresh rotation",
      // No separate warm-up: every token is single use; the chains run on from where they are.
      run: (side) => lineup.measure(side, (duration) => rotationChains(chains[side] ?? [], duration, rotate(side)))
    },
    {
      label: "GET /v1/me with a bearer (the peer: userinfo, /me)",
      run: (side) =>
        lineup.measure(side, (duration) =>
          cannon({
            url: `${base(side)}${routes(side).me}`,
            headers: { authorization: `Bearer ${bearers[side] ?? ""}` }
          }, duration), seconds)
    }
  ])

  writeSection(
    join(root, "apps/accounts/docs/benchmarks.md"),
    "refresh",
    `## Refresh-token rotation and \`GET /v1/me\` (\`npm run bench:refresh\`)

Measured ${new Date().toISOString().slice(0, 10)} on ${machine()}. Rotations: ${connections} client loops for ${seconds} s, each sending its next refresh once it has read the last answer (scripts/bench/chainLoad.ts; autocannon prepares requests ahead of answers, which would spend a token twice); a rotation spends a fresh single-use refresh token and answers the next one with a new access token (ours signed, the peer's opaque); each loop follows its own chain, from a sign-in of our CLI's public client (ours) or a Grant of a public client (the peer). The bare row shows what the same loops reach against a server that answers our JSON and does nothing. \`GET /v1/me\` with a bearer (the peer: its userinfo endpoint \`/me\`, with an access token from a rotation): autocannon, ${connections} connections, ${seconds} s after a ${seconds} s warm-up.

${lineupLegend()}

${lineupTable(rows)}`
  )
  process.stdout.write(`written to apps/accounts/docs/benchmarks.md\n`)
} finally {
  await lineup.close()
}
