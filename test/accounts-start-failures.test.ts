import { Effect, Exit, Scope } from "effect"
import { TestDatabase } from "@platform/database"
import { freePort, runToExit } from "@platform/testkit"
import { randomBytes } from "node:crypto"
import { existsSync, mkdtempSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"

const root = join(import.meta.dirname, "..")
const someEncryptionKey = randomBytes(32).toString("base64")

/** Starts accounts expecting it to stop on its own; the data directory is a path nothing has created yet. */
const failedStart = async (env: Record<string, string>) => {
  const dataDir = join(mkdtempSync(join(tmpdir(), "accounts-failed-start-")), "data")
  const port = String(await freePort())
  const run = await runToExit({
    entry: "apps/accounts/src/main.ts",
    cwd: root,
    env: { ACCOUNTS_PORT: port, ACCOUNTS_DATA_DIR: dataDir, ...env }
  })
  return { ...run, dataDir, lines: run.stderr.trim().split("\n") }
}

/** A start that stops with exit code 1 and `line` alone on stderr. */
const refusedWith = async (env: Record<string, string>, line: string) => {
  const run = await failedStart(env)
  expect(run.code).toBe(1)
  expect(run.lines).toEqual([line])
  return run
}

describe("a start that cannot succeed stops with one line on stderr and exit code 1", () => {
  it("production without ACCOUNTS_SMTP_URL, before any database is created or migrated", async () => {
    const run = await failedStart({ ACCOUNTS_ENVIRONMENT: "production", ACCOUNTS_KEY_ENCRYPTION_KEY: someEncryptionKey })
    expect(run.code).toBe(1)
    expect(run.lines).toEqual([
      "accounts: configuration error: ACCOUNTS_SMTP_URL is required when ACCOUNTS_ENVIRONMENT=production " +
      "(the development mailbox is not used in production)"
    ])
    expect(existsSync(run.dataDir)).toBe(false)
  }, 300_000)

  it("production without ACCOUNTS_KEY_ENCRYPTION_KEY: nothing would be sealed at rest", async () => {
    const run = await refusedWith(
      { ACCOUNTS_ENVIRONMENT: "production", ACCOUNTS_SMTP_URL: "smtp://127.0.0.1:2525" },
      "accounts: configuration error: ACCOUNTS_KEY_ENCRYPTION_KEY is required in production: signing keys, webhook secrets, " +
        "identity-provider credentials and stored answers carrying tokens are sealed with it"
    )
    expect(existsSync(run.dataDir)).toBe(false)
  }, 300_000)

  it("a port that is not one, before any database is created or migrated", async () => {
    const run = await failedStart({ ACCOUNTS_PORT: "99999" })
    expect(run.code).toBe(1)
    expect(run.lines).toEqual([
      "accounts: configuration error: ACCOUNTS_PORT must be a network port value but received \"99999\""
    ])
    expect(existsSync(run.dataDir)).toBe(false)
  }, 300_000)

  it("a port another process listens on names the port and the setting", async () => {
    const scope = Effect.runSync(Scope.make())
    const { url } = await Effect.runPromise(Scope.extend(TestDatabase.provision, scope))
    const taken = createServer()
    const port = await new Promise<number>((resolve) => {
      taken.listen(0, "127.0.0.1", () => resolve((taken.address() as { port: number }).port))
    })
    try {
      const run = await failedStart({ ACCOUNTS_PORT: String(port), ACCOUNTS_DATABASE_URL: url })
      expect(run.code).toBe(1)
      expect(run.lines).toEqual([
        `accounts: port ${port} on 127.0.0.1 is in use (another accounts running? set ACCOUNTS_PORT)`
      ])
    } finally {
      await new Promise((resolve) => taken.close(resolve))
      await Effect.runPromise(Scope.close(scope, Exit.void))
    }
  }, 90_000)

  it("a database nobody listens for names where it tried and the setting", async () => {
    const closed = await freePort()
    const run = await failedStart({ ACCOUNTS_DATABASE_URL: `postgres://postgres:s3cret@127.0.0.1:${closed}/accounts` })
    expect(run.code).toBe(1)
    expect(run.lines).toEqual([
      `accounts: could not connect to postgres://postgres@127.0.0.1:${closed}/accounts: connect ECONNREFUSED ` +
      `127.0.0.1:${closed} (is PostgreSQL running there? check ACCOUNTS_DATABASE_URL)`
    ])
    expect(run.stderr + run.stdout).not.toContain("s3cret")
  }, 300_000)

  it("more than one worker on the embedded database, before it is created", async () => {
    const run = await refusedWith(
      { ACCOUNTS_WORKERS: "2" },
      "accounts: configuration error: ACCOUNTS_WORKERS must be 1 with the embedded database (one process owns it); " +
        "set ACCOUNTS_DATABASE_URL to run more"
    )
    expect(existsSync(run.dataDir)).toBe(false)
  }, 300_000)

  it("with two workers, worker 1 says why it cannot start, once, and worker 2 is never started", async () => {
    const closed = await freePort()
    const run = await refusedWith(
      { ACCOUNTS_WORKERS: "2", ACCOUNTS_DATABASE_URL: `postgres://postgres@127.0.0.1:${closed}/accounts` },
      `accounts: could not connect to postgres://postgres@127.0.0.1:${closed}/accounts: connect ECONNREFUSED ` +
        `127.0.0.1:${closed} (is PostgreSQL running there? check ACCOUNTS_DATABASE_URL)`
    )
    expect(run.stdout).toContain(`"event":"worker_exited","worker":1`)
    expect(run.stdout).not.toContain(`"worker":2`)
  }, 300_000)
})
