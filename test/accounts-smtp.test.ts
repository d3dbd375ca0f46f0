import { Effect, Exit, Scope } from "effect"
import { freePort, type RunningSmtpServer, smtpServer, spawnService } from "@platform/testkit"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, expect, it } from "vitest"

const root = join(import.meta.dirname, "..")
let smtp: RunningSmtpServer
const scope = Effect.runSync(Scope.make())

beforeAll(async () => {
  smtp = await Effect.runPromise(Scope.extend(smtpServer(), scope))
})
afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))

it("with ACCOUNTS_SMTP_URL set, a real SMTP server receives the sign-in code", async () => {
  const port = await freePort()
  const service = await spawnService({
    entry: "apps/accounts/src/main.ts",
    cwd: root,
    url: `http://127.0.0.1:${port}`,
    env: {
      ACCOUNTS_PORT: String(port),
      ACCOUNTS_DATA_DIR: mkdtempSync(join(tmpdir(), "accounts-smtp-")),
      ACCOUNTS_SMTP_URL: smtp.url,
      ACCOUNTS_MAIL_FROM: "accounts@example.com"
    }
  })
  try {
    const start = await fetch(`${service.url}/v1/cli/login/start`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "grace@example.com" })
    })
    expect(start.status).toBe(200)
    await expect.poll(() => smtp.received.length, { timeout: 60_000 }).toBe(1)
    const mail = smtp.received[0]!
    expect(mail.from).toBe("accounts@example.com")
    expect(mail.to).toEqual(["grace@example.com"])
    expect(mail.raw).toMatch(/Code: \d{6}|code is \d{6}/)
  } finally {
    await service.stop()
  }
}, 300_000)
