/**
 * `npm run bench:iam`: the two application-facing IAM operations every spec 3 request leans on, in one run
 * beside accounts' introspection and a bare node:http server (the floor):
 * - introspection of an application access token by its application (POST /api/v1/oauth/introspect, Basic);
 * - SLT exchanges (POST /api/v1/oauth/token, grant short-lived-token), each SLT minted beforehand and sent once;
 * - accounts' introspection of an app access token (POST /v1/oauth/introspect, Basic), the target to meet.
 * Both servers run as `npm start` runs them: on fresh databases `bench_ours` and `bench_iam` of the PostgreSQL
 * server at ACCOUNTS_DATABASE_URL (or TEST_DATABASE_URL) when set, else on fresh embedded databases.
 * Writes the table to apps/iam/docs/benchmarks.md.
 */
import { encryptionKeyFromBytes } from "@platform/crypto"
import { Database } from "@platform/database"
import { Effect, Layer, ManagedRuntime, Option, Redacted } from "effect"
import { createHash, randomBytes } from "node:crypto"
import { mkdtempSync, writeFileSync } from "node:fs"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { AccountsRepo } from "../../apps/accounts/src/accounts/AccountsRepo.ts"
import { AppsRepo } from "../../apps/accounts/src/apps/AppsRepo.ts"
import { createFakeApp } from "../../apps/accounts/src/apps/FakeApps.ts"
import { AuthorizationCodes } from "../../apps/accounts/src/oauth/AuthorizationCodes.ts"
import { ShortLivedTokens } from "../../apps/iam/src/application-sessions/ShortLivedTokens.ts"
import { Applications } from "../../apps/iam/src/applications/Applications.ts"
import { IamConfigOf } from "../../apps/iam/src/config.ts"
import { iamMigrations } from "../../apps/iam/src/migrations.ts"
import { Organizations } from "../../apps/iam/src/organizations/Organizations.ts"
import { IamSessions } from "../../apps/iam/src/sessions/IamSessions.ts"
import { chainLoad, type LoadResult } from "./chainLoad.ts"
import { withCpuPerRequest } from "./cpuTime.ts"
import { cannon, connections, databaseUrl, root, seconds } from "./lineup.ts"
import { ourDatabase } from "./ourDatabase.ts"
import { machine, writeSection } from "./report.ts"
import { freshDatabase } from "./scratchDatabase.ts"
import { startServer, stopServer } from "./servers/spawn.ts"

const warmUpSeconds = Math.min(3, seconds)
const ports = { accounts: 4226, iam: 4227, bare: 4228 }
const work = mkdtempSync(join(tmpdir(), "bench-iam-"))
const loadBefore = loadavg().map((l) => l.toFixed(1)).join(", ")
const iamDatabaseUrl = databaseUrl === undefined ? undefined : await freshDatabase(databaseUrl, "bench_iam")
const iamDataDir = join(work, "iam")
const accountsDataDir = join(work, "accounts")
const secretKey = randomBytes(32)
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`
const form = (url: string, authorization: string, parameters: Record<string, string>) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", authorization },
    body: new URLSearchParams(parameters).toString()
  })
const checked = async (label: string, response: Promise<Response>) => {
  const answer = await response
  const text = await answer.text()
  if (answer.status !== 200 || text.includes("\"active\":false")) throw new Error(`${label}: ${answer.status} ${text}`)
  return text
}
/** SLTs minted ahead per second of load, above what IAM can exchange (a run that used them all fails). */
const sltsPerSecond = 2000
const sltGrant = "urn:iam:params:oauth:grant-type:short-lived-token"

const iamDatabase = Database.layer({
  url: iamDatabaseUrl === undefined ? Option.none() : Option.some(Redacted.make(iamDatabaseUrl)),
  dataDir: iamDataDir,
  migrations: iamMigrations
})

const accounts = await startServer(join(root, "apps/accounts/src/main.ts"), {
  ACCOUNTS_PORT: String(ports.accounts),
  ACCOUNTS_DATA_DIR: accountsDataDir,
  ...(databaseUrl === undefined ? {} : { ACCOUNTS_DATABASE_URL: databaseUrl })
}, `http://127.0.0.1:${ports.accounts}/readyz`)
const iam = await startServer(join(root, "apps/iam/src/main.ts"), {
  IAM_PORT: String(ports.iam),
  IAM_DATA_DIR: iamDataDir,
  IAM_SECRET_KEY: secretKey.toString("base64"),
  ...(iamDatabaseUrl === undefined ? {} : { IAM_DATABASE_URL: iamDatabaseUrl })
}, `http://127.0.0.1:${ports.iam}/readyz`)
let bare: Awaited<ReturnType<typeof startServer>> | undefined

// IAM's side, through its own services on its database: a Carbon's IAM session, an organization, an application.
const iamRuntime = ManagedRuntime.make(
  Layer.mergeAll(IamSessions.Default, Organizations.Default, Applications.Default, ShortLivedTokens.Default).pipe(
    Layer.provideMerge(iamDatabase),
    Layer.provide(IamConfigOf({
      port: ports.iam,
      host: "127.0.0.1",
      publicUrl: `http://127.0.0.1:${ports.iam}`,
      environment: "development",
      trustProxy: false,
      internalToken: Option.none(),
      keyEncryptionKey: Option.none(),
      drainSeconds: 1,
      accountsUrl: `http://127.0.0.1:${ports.accounts}`,
      accountsToken: Option.none(),
      secretKey: encryptionKeyFromBytes(secretKey),
      phoneVerification: Option.none()
    }))
  )
)
// Accounts' side: a Carbon, a fake app, a code exchanged for an app access token.
const accountsRuntime = ManagedRuntime.make(
  Layer.mergeAll(AccountsRepo.Default, AppsRepo.Default, AuthorizationCodes.Default).pipe(Layer.provideMerge(ourDatabase(accountsDataDir)))
)

try {
  const stamp = Date.now().toString(36)
  const setup = await iamRuntime.runPromise(Effect.gen(function*() {
    const identity = { uuid: crypto.randomUUID(), id: `c:bench${stamp}`, kind: "carbon" as const, display_name: "Bench Mark", status: "active" }
    const session = yield* (yield* IamSessions).open(identity, "code")
    const organization = yield* (yield* Organizations).create(
      { uuid: identity.uuid, id: identity.id, kind: "carbon", sessionId: session.session_id },
      { name: "Bench organization" }
    )
    const appId = `bench${stamp}`
    const registered = yield* (yield* Applications).register({
      appId,
      name: "Bench application",
      callbackUrls: ["https://bench.example/callback"],
      scopes: [],
      webhookScope: [],
      consentRequired: false,
      ownerUuid: identity.uuid,
      organizationId: null
    })
    return { identity, session, organizationId: organization.organization.id, appId, secret: registered.client_secret }
  }).pipe(Effect.orDie))
  const iamBase = `http://127.0.0.1:${ports.iam}`
  const iamAuthorization = basic(setup.appId, setup.secret)
  const mintSlts = (count: number) =>
    iamRuntime.runPromise(Effect.gen(function*() {
      const tokens = yield* ShortLivedTokens
      return yield* Effect.forEach(Array.from({ length: count }), () =>
        Effect.map(tokens.mint({
          identityUuid: setup.identity.uuid,
          parentSessionId: setup.session.session_id,
          appId: setup.appId,
          orgIds: [setup.organizationId],
          scopes: ["identity"],
          requestId: crypto.randomUUID()
        }), (minted) => minted.slt), { concurrency: 10 })
    }))
  const exchange = (slt: string) => form(`${iamBase}/api/v1/oauth/token`, iamAuthorization, { grant_type: sltGrant, slt })
  const [firstSlt] = await mintSlts(1)
  const iamTokenText = await checked("IAM SLT exchange", exchange(firstSlt ?? ""))
  const iamAccess = (JSON.parse(iamTokenText) as { access_token: string }).access_token
  const iamIntrospection = await checked(
    "IAM introspection",
    form(`${iamBase}/api/v1/oauth/introspect`, iamAuthorization, { token: iamAccess })
  )

  const verifier = randomBytes(32).toString("base64url")
  const redirectUri = "https://bench.example/callback"
  const accountsApp = await accountsRuntime.runPromise(Effect.gen(function*() {
    const carbon = yield* (yield* AccountsRepo).createCarbon({ id: `c:bench${stamp}`, displayName: "Bench Mark", email: `bench${stamp}@example.com` })
    const appId = `bench${stamp}`
    const { secret } = yield* createFakeApp({ appId, name: "Bench app", redirectUris: [redirectUri], owner: Option.none(), scopeFields: [] })
    const now = new Date()
    const code = yield* (yield* AuthorizationCodes).issue({
      appId,
      accountUuid: carbon.uuid,
      redirectUri,
      codeChallenge: createHash("sha256").update(verifier).digest("base64url"),
      codeChallengeMethod: "S256",
      scope: "openid profile",
      nonce: null,
      authTime: now,
      now
    })
    return { appId, secret, code }
  }).pipe(Effect.orDie))
  const accountsBase = `http://127.0.0.1:${ports.accounts}`
  const accountsAuthorization = basic(accountsApp.appId, accountsApp.secret)
  const accountsToken = await checked(
    "accounts code exchange",
    form(`${accountsBase}/v1/oauth/token`, accountsAuthorization, {
      grant_type: "authorization_code",
      code: accountsApp.code,
      redirect_uri: redirectUri,
      code_verifier: verifier
    })
  )
  const accountsAccess = (JSON.parse(accountsToken) as { access_token: string }).access_token
  await checked("accounts introspection", form(`${accountsBase}/v1/oauth/introspect`, accountsAuthorization, { token: accountsAccess }))

  // The floor: the same introspection answer from memory, after reading the form body.
  writeFileSync(join(work, "introspect.json"), iamIntrospection)
  bare = await startServer(join(root, "scripts/bench/servers/bare-oauth.ts"), {
    PORT: String(ports.bare),
    INTROSPECT_FILE: join(work, "introspect.json")
  })

  const introspection = (base: string, path: string, authorization: string, token: string) => (duration: number) =>
    cannon({
      url: `${base}${path}`,
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", authorization },
      body: new URLSearchParams({ token }).toString()
    }, duration)
  const exchanges = async (duration: number): Promise<LoadResult> => {
    const slts = await mintSlts(Math.ceil(sltsPerSecond * duration))
    let next = 0
    return chainLoad({
      workers: connections,
      seconds: duration,
      initial: () => undefined,
      send: async () => {
        const slt = slts[next++]
        if (slt === undefined) throw new Error(`all ${slts.length} SLTs used; mint more`)
        const response = await exchange(slt)
        await response.arrayBuffer()
        return { ok: response.status === 200, next: undefined }
      }
    })
  }
  const measure = async (pid: number | undefined, load: (duration: number) => Promise<LoadResult>) => {
    await load(warmUpSeconds)
    return withCpuPerRequest(pid, seconds, () => load(seconds))
  }
  const results = {
    iamIntrospection: await measure(iam.pid, introspection(iamBase, "/api/v1/oauth/introspect", iamAuthorization, iamAccess)),
    accountsIntrospection: await measure(
      accounts.pid,
      introspection(accountsBase, "/v1/oauth/introspect", accountsAuthorization, accountsAccess)
    ),
    bareIntrospection: await measure(bare.pid, introspection(`http://127.0.0.1:${ports.bare}`, "/v1/oauth/introspect", "x", "x")),
    exchanges: await measure(iam.pid, exchanges)
  }
  for (const [name, r] of Object.entries(results)) process.stdout.write(`${name} ${JSON.stringify(r)}\n`)

  const onPg = databaseUrl !== undefined
  const row = (label: string, r: typeof results.exchanges, pg: boolean) =>
    `| ${label} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${r.serverCpuUs}${pg ? ` + PostgreSQL ${r.postgresCpuUs}` : ""} | ${
      (r.rps / results.bareIntrospection.rps).toFixed(2)
    } | ${r.non2xx} |`
  writeSection(
    join(root, "apps/iam/docs/benchmarks.md"),
    "iam",
    `## Introspection and SLT exchange (\`npm run bench:iam\`)

Measured ${new Date().toISOString().slice(0, 10)} on ${machine()} (load average before the run: ${loadBefore}); databases: ${
      onPg ? "PostgreSQL server (fresh bench_ours and bench_iam)" : "embedded PGlite"
    }. Servers pinned to core 1, load generator on core 0. Each row warms up ${warmUpSeconds} s, then measures ${seconds} s with ${connections} connections. Introspection: autocannon, one access token, HTTP Basic, \`token=\` form body (IAM: an application session's \`aat_\` token, active only while the token, its session, the parent IAM session, the subject and one organization membership are live, all read in one statement; accounts: an app access token from an ordinary code exchange, a signed JWT verified once and remembered, plus one read of its sign-in). SLT exchange: ${connections} client loops each sending an unused SLT (minted beforehand through IAM's own service) once it has read the last answer; each answer is an access and a refresh token. Bare: node:http answering IAM's introspection JSON from memory after reading the body.

| operation | req/s | p50 ms | p99 ms | server CPU µs per request | × bare | non-2xx |
| --- | --- | --- | --- | --- | --- | --- |
${row("IAM introspection", results.iamIntrospection, onPg)}
${row("accounts introspection", results.accountsIntrospection, onPg)}
${row("bare node:http introspection answer", results.bareIntrospection, false)}
${row("IAM SLT exchange", results.exchanges, onPg)}

IAM introspection is ${(results.iamIntrospection.rps / results.accountsIntrospection.rps).toFixed(2)}× accounts' introspection (target: at least 1×).`
  )
  process.stdout.write("written to apps/iam/docs/benchmarks.md\n")
} finally {
  await iamRuntime.dispose()
  await accountsRuntime.dispose()
  await Promise.all([stopServer(accounts), stopServer(iam), ...(bare === undefined ? [] : [stopServer(bare)])])
}
