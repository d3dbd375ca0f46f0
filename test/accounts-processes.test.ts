import { freePort, type SpawnedService, spawnService, tcpProxy } from "@platform/testkit"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { provisionedDatabase, reportAcrossSigterm, root, runAccountsCli, startAccounts } from "./support/accountsProcess.ts"

const main = "apps/accounts/src/main.ts"

const kidsOf = async (url: string): Promise<Array<string>> => {
  const jwks = await (await fetch(`${url}/.well-known/jwks.json`)).json() as { keys: Array<{ kid: string }> }
  return jwks.keys.map((key) => key.kid).sort()
}

const report = (url: string, headers: Record<string, string> = {}) =>
  fetch(`${url}/v1/reports`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ message: "it works" })
  })

describe("accounts as npm start runs it, on the embedded database", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "accounts-embedded-"))
  const env = { ACCOUNTS_DATA_DIR: dataDir }

  it("answers /readyz, keeps keys and data across a restart, and rotates keys from the operator command while running", async () => {
    const first = await startAccounts(env)
    // Once it listens, the log tells a person where the docs are.
    await expect.poll(first.output).toContain(`"msg":"docs at ${first.url}/docs"`)
    const kids = await kidsOf(first.url)
    expect(kids).toHaveLength(2)
    const created = await report(first.url, { "idempotency-key": "restart-proof" })
    expect(created.status).toBe(201)
    const original = await created.json()
    expect(await first.stop()).toBe(0)

    const second = await startAccounts(env)
    try {
      expect(await kidsOf(second.url)).toEqual(kids)
      // The stored idempotent answer survived the restart: data lives in the data directory.
      const replayed = await report(second.url, { "idempotency-key": "restart-proof" })
      expect(replayed.headers.get("idempotent-replayed")).toBe("true")
      expect(await replayed.json()).toEqual(original)

      // The server holds the embedded database; the operator command reaches it through the server's socket.
      const rotated = await runAccountsCli(["keys", "rotate"], env)
      const printed = JSON.parse(rotated.stdout) as { rotated: Array<{ kid: string; alg: string }> }
      expect(printed.rotated.map((key) => key.alg).sort()).toEqual(["EdDSA", "RS256"])
      const newKids = printed.rotated.map((key) => key.kid)
      await expect.poll(() => kidsOf(second.url), { timeout: 60_000 }).toEqual([...kids, ...newKids].sort())
    } finally {
      await second.stop()
    }
  }, 300_000)

  it("a wrong setting stops the start with one clear line", async () => {
    const port = await freePort()
    const started = await spawnService({
      entry: main,
      cwd: root,
      url: `http://127.0.0.1:${port}`,
      env: { ACCOUNTS_PORT: String(port), ACCOUNTS_PUBLIC_URL: "ftp://nope", ACCOUNTS_DATA_DIR: dataDir },
      timeoutMs: 120_000
    }).then(() => undefined, (error: Error) => error.message)
    expect(started).toMatch(/service exited with 1/)
    expect(started).toMatch(/ACCOUNTS_PUBLIC_URL must be an http\(s\) origin/)
    expect(started!.trim().split("\n").filter((line) => line.includes("configuration error"))).toHaveLength(1)
  }, 300_000)

  it("creates a Carbon from the operator command while the server runs, and refuses its id a second time", async () => {
    const server = await startAccounts(env)
    try {
      const args = ["carbons", "create", "--email", " Ada@Example.com", "--phone", "+44 20 7946 0958", "--id", "c:Ada_L"]
      const created = await runAccountsCli([...args, "--display-name", "Ada Lovelace"], env)
      const me = JSON.parse(created.stdout) as Record<string, unknown>
      expect(me).toEqual({
        uuid: expect.stringMatching(/^[A-Za-z0-9]{3}$/),
        kind: "carbon",
        id: "c:ada_l",
        display_name: "Ada Lovelace",
        // No photo yet: the generated default picture of this account (on the public origin of the command's settings).
        pfp_url: expect.stringMatching(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/v1/photos/default/${String(me["uuid"])}$`)),
        dob: null,
        timezone: "UTC",
        status: "active",
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        updated_at: me["created_at"],
        version: 1
      })
      expect(created.stdout.trim().split("\n")).toHaveLength(1)
      // The running server sees the new account at once.
      const taken = await (await fetch(`${server.url}/v1/ids/available?id=c:ada_l`)).json() as { available: boolean }
      expect(taken.available).toBe(false)

      const again = await runAccountsCli(["carbons", "create", "--email", "other@example.com", "--id", "C:ADA_L", "--display-name", "Ada"], env)
        .then(() => undefined, (error: { code: number; stdout: string; stderr: string }) => error)
      expect(again?.code).not.toBe(0)
      expect(again?.stdout).toBe("")
      const lines = again!.stderr.trim().split("\n")
      expect(lines).toHaveLength(1)
      expect(lines[0]).toMatch(/c:ada_l is taken/)
    } finally {
      await server.stop()
    }
  }, 300_000)
})

describe("two accounts processes on one database", () => {
  let database: Awaited<ReturnType<typeof provisionedDatabase>>
  let a: SpawnedService
  let b: SpawnedService

  beforeAll(async () => {
    database = await provisionedDatabase()
    const env = { ACCOUNTS_DATABASE_URL: database.url, ACCOUNTS_TRUST_PROXY: "true" }
    // Started together on an empty database: both migrate and both look for keys at once.
    ;[a, b] = await Promise.all([startAccounts(env), startAccounts(env)])
  }, 300_000)

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()])
    await database?.close()
  })

  it("publish one key set", async () => {
    const kids = await kidsOf(a.url)
    expect(kids).toHaveLength(2)
    expect(await kidsOf(b.url)).toEqual(kids)
  })

  it("share one rate-limit window", async () => {
    const from = { "x-forwarded-for": "192.0.2.44" }
    const statuses: Array<number> = []
    for (const server of [a, b, a, b, a, b]) statuses.push((await report(server.url, from)).status)
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429])
  })

  it("share idempotency results", async () => {
    const headers = { "idempotency-key": "across-processes", "x-forwarded-for": "192.0.2.45" }
    const first = await report(a.url, headers)
    const second = await report(b.url, headers)
    expect(second.headers.get("idempotent-replayed")).toBe("true")
    expect(await second.json()).toEqual(await first.json())
  })
})

describe("readiness and shutdown", () => {
  it("/readyz is 503 while the database is unreachable and 200 again once it is back", async () => {
    const database = await provisionedDatabase()
    const target = new URL(database.url)
    const proxy = await tcpProxy(target.hostname, Number(target.port || 5432))
    target.host = `127.0.0.1:${proxy.port}`
    const service = await startAccounts({ ACCOUNTS_DATABASE_URL: target.toString() })
    try {
      proxy.cut()
      await expect.poll(async () => (await fetch(`${service.url}/readyz`)).status, { timeout: 60_000 }).toBe(503)
      const down = await (await fetch(`${service.url}/readyz`, { headers: { "x-request-id": "probe-1" } })).json() as { error: unknown }
      expect(down.error).toMatchObject({ code: "service_unavailable", details: { request_id: "probe-1" } })
      expect((await fetch(`${service.url}/healthz`)).status).toBe(200)
      proxy.restore()
      await expect.poll(async () => (await fetch(`${service.url}/readyz`)).status, { timeout: 60_000 }).toBe(200)
    } finally {
      await service.stop()
      await proxy.close()
      await database.close()
    }
  }, 90_000)

  it("SIGTERM lets a request in flight finish, then exits 0", async () => {
    const database = await provisionedDatabase()
    const service = await startAccounts({ ACCOUNTS_DATABASE_URL: database.url })
    try {
      expect(await reportAcrossSigterm(service)).toBe(201)
      // A second signal would force an immediate exit, so only wait.
      expect(await service.exited).toBe(0)
    } finally {
      await database.close()
    }
  }, 300_000)
})
