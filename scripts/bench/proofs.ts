/**
 * `npm run bench:proofs`: autocannon (50 connections, 10 s) against POST /v1/proofs/verify, the hot path
 * of every receiving app, for a valid User verification proof and for an unknown token (answers our server
 * keeps and replays), and for a valid proof with a new body each time (never a kept answer), beside a bare
 * node:http server that parses the same body and answers the same JSON from memory (lineup.ts). The
 * proof is issued through the server's own routes: an app sign-in from an authorization code minted
 * with the service's repository, then POST /v1/proofs/user-verification. Writes the table to
 * apps/accounts/docs/benchmarks.md.
 */
import { Effect, Option } from "effect"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { AccountsRepo } from "../../apps/accounts/src/accounts/AccountsRepo.ts"
import { AppsRepo } from "../../apps/accounts/src/apps/AppsRepo.ts"
import { createFakeApp } from "../../apps/accounts/src/apps/FakeApps.ts"
import { AuthorizationCodes } from "../../apps/accounts/src/oauth/AuthorizationCodes.ts"
import { cannon, connections, lineupLegend, lineupTable, makeLineup, measureRows, root, seconds, type Side } from "./lineup.ts"
import { ourDatabase } from "./ourDatabase.ts"
import { machine, writeSection } from "./report.ts"

const ports: Partial<Record<Side, number>> = { ours: 4195, bare: 4196 }
const work = mkdtempSync(join(tmpdir(), "bench-proofs-"))
const dataDir = join(work, "accounts")
const lineup = makeLineup()
const REDIRECT_URI = "https://rp.example.test/callback"

const base = (side: Side) => `http://127.0.0.1:${ports[side]}`
const basic = (app: { readonly appId: string; readonly secret: string }) =>
  `Basic ${Buffer.from(`${app.appId}:${app.secret}`).toString("base64")}`

const expectOk = async (response: Response, what: string) => {
  const text = await response.text()
  if (!response.ok) throw new Error(`${what}: ${response.status} ${text}`)
  return JSON.parse(text) as Record<string, unknown>
}

try {
  await lineup.startOurs(ports.ours!, dataDir)

  // Two apps and a Carbon, and a code for the issuing app's sign-in, through the service's repositories.
  const suffix = Date.now().toString(36)
  const prepared = await Effect.runPromise(
    Effect.gen(function*() {
      const accounts = yield* AccountsRepo
      const codes = yield* AuthorizationCodes
      const carbon = yield* Effect.orDie(
        accounts.createCarbon({ id: `c:bench${suffix}`, displayName: "Bench Mark", email: `bench${suffix}@example.com` })
      )
      const app = (appId: string) =>
        Effect.map(
          Effect.orDie(createFakeApp({ appId, name: appId, redirectUris: [REDIRECT_URI], owner: Option.none(), scopeFields: [] })),
          ({ secret }) => ({ appId, secret })
        )
      const issuer = yield* app(`bench-issuer-${suffix}`)
      const receiver = yield* app(`bench-receiver-${suffix}`)
      const now = new Date()
      const code = yield* codes.issue({
        appId: issuer.appId,
        accountUuid: carbon.uuid,
        redirectUri: REDIRECT_URI,
        codeChallenge: null,
        codeChallengeMethod: null,
        scope: "openid profile",
        nonce: null,
        authTime: now,
        now
      })
      return { issuer, receiver, code }
    }).pipe(
      Effect.provide([AccountsRepo.Default, AppsRepo.Default, AuthorizationCodes.Default]),
      Effect.provide(ourDatabase(dataDir)),
      Effect.scoped
    )
  )
  const signedIn = await expectOk(
    await fetch(`${base("ours")}/v1/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: basic(prepared.issuer) },
      body: new URLSearchParams({ grant_type: "authorization_code", code: prepared.code, redirect_uri: REDIRECT_URI }).toString()
    }),
    "app sign-in"
  )
  const proof = await expectOk(
    await fetch(`${base("ours")}/v1/proofs/user-verification`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: basic(prepared.issuer) },
      body: JSON.stringify({ subject_token: signedIn["access_token"], receiving_app: prepared.receiver.appId })
    }),
    "user verification"
  )
  const proofToken = String(proof["proof_token"])
  const verification = await fetch(`${base("ours")}/v1/proofs/verify`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: basic(prepared.receiver) },
    body: JSON.stringify({ proof_token: proofToken })
  })
  const validAnswer = await verification.text()
  if (!validAnswer.includes(`"valid":true`)) throw new Error(`verification: ${verification.status} ${validAnswer}`)
  writeFileSync(join(work, "valid.json"), validAnswer)
  await lineup.startBare("scripts/bench/servers/bare-proofs.ts", {
    PORT: String(ports.bare),
    VALID_FILE: join(work, "valid.json"),
    VALID_TOKEN: proofToken
  })

  const headers = { "content-type": "application/json", authorization: basic(prepared.receiver) }
  const verify = (side: Side, token: string) =>
    side === "ours" || side === "bare"
      ? lineup.measure(side, (duration) =>
        cannon({ url: `${base(side)}/v1/proofs/verify`, method: "POST", headers, body: JSON.stringify({ proof_token: token }) }, duration), seconds)
      : undefined
  // Each request's body differs (a counter beside the token), so no answer is ever replayed: the handler runs.
  let sent = 0
  const verifyEveryBodyNew = (side: Side) =>
    side === "ours" || side === "bare"
      ? lineup.measure(side, (duration) =>
        cannon({
          url: `${base(side)}/v1/proofs/verify`,
          requests: [{
            method: "POST",
            headers,
            setupRequest: (request) => ({ ...request, body: JSON.stringify({ proof_token: proofToken, n: ++sent }) })
          }]
        }, duration), seconds)
      : undefined

  const rows = await measureRows([
    { label: "POST /v1/proofs/verify, valid proof", run: (side) => verify(side, proofToken) },
    { label: "POST /v1/proofs/verify, unknown token", run: (side) => verify(side, "sap_unknown0000000000000000000000") },
    { label: "POST /v1/proofs/verify, valid proof, every body new (never a kept answer)", run: verifyEveryBodyNew }
  ])
  const valid = rows[0]!.results
  const share = valid.ours !== undefined && valid.bare !== undefined ? `${Math.round((100 * valid.ours.rps) / valid.bare.rps)} %` : "–"

  writeSection(
    join(root, "apps/accounts/docs/benchmarks.md"),
    "proofs",
    `## Proof verification (\`npm run bench:proofs\`)

Measured ${new Date().toISOString().slice(0, 10)} on ${machine()}. autocannon, ${connections} connections, ${seconds} s per target after a ${seconds} s warm-up, every request authenticated as the receiving app (HTTP Basic). Our server replays the answer it kept for the same credentials and body (\`KeepsAnswers\` on the proof view's channel), once the change fence shared by the requests waiting together has answered: no fiber, no credential check, no decoding. The last row sends a new body each time (a counter beside the token), so the answer is never a kept one: the credential check (cached 60 s per server), the proof with its apps, account, membership and sign-in from the exact per-process cache (behind the same fence; one statement on the token's primary key on a miss), and the handler's encoding, each time. The bare server parses the body and answers the same JSON from memory; the oidc-provider columns have no such operation. For valid proofs ours reaches ${share} of the bare server's throughput (target: at least 60 %).

${lineupLegend()}

${lineupTable(rows)}`
  )
  process.stdout.write(`written to apps/accounts/docs/benchmarks.md\n`)
} finally {
  await lineup.close()
}
