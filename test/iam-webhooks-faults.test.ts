/**
 * IAM's webhook delivery across processes: the process delivering a batch is killed with SIGKILL while
 * it holds claims, a second IAM process on the same database finishes the work, and the receiving
 * application checks every request with the published helper (`@platform/iam-webhook-verify`).
 */
import { verifyIamWebhook } from "@platform/iam-webhook-verify"
import { freePort, runToExit, type SpawnedService, spawnService } from "@platform/testkit"
import { mkdtempSync } from "node:fs"
import { createServer, type IncomingHttpHeaders, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import pg from "pg"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { provisionedDatabase, root } from "./support/accountsProcess.ts"
import { expireClaims } from "./support/expireClaims.ts"

const DELIVERIES = 300

/** A receiving application: verifies each request, counts them per delivery id, and can stop answering. */
const startReceiver = async (secrets: () => Readonly<Record<string, string>>) => {
  const received = new Map<string, number>()
  const refused: Array<string> = []
  let stalled = false
  const held: Array<() => void> = []
  const server: Server = createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      const headers: IncomingHttpHeaders = request.headers
      const verified = verifyIamWebhook({ headers, rawBody: Buffer.concat(chunks), secrets: secrets(), now: Date.now() })
      const deliveryId = String(headers["x-iam-delivery-id"])
      if (!verified.ok) refused.push(`${deliveryId}: ${verified.reason}`)
      received.set(deliveryId, (received.get(deliveryId) ?? 0) + 1)
      const answer = () => response.writeHead(verified.ok ? 204 : 401).end()
      if (stalled) held.push(answer)
      else answer()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/iam-hook`,
    received,
    refused,
    stall: () => (stalled = true),
    unanswered: () => held.length,
    release: () => {
      stalled = false
      for (const answer of held.splice(0)) answer()
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

describe("IAM webhook delivery across processes", () => {
  let database: Awaited<ReturnType<typeof provisionedDatabase>>
  let receiver: Awaited<ReturnType<typeof startReceiver>>
  let db: pg.Client
  let secret = ""
  const services: Array<SpawnedService> = []
  const dataDir = mkdtempSync(join(tmpdir(), "iam-webhooks-"))
  let env: Record<string, string>

  beforeAll(async () => {
    database = await provisionedDatabase()
    receiver = await startReceiver(() => ({ "1": secret }))
    env = { IAM_DATABASE_URL: database.url, IAM_DATA_DIR: dataDir }
    db = new pg.Client({ connectionString: database.url })
    await db.connect()
  }, 120_000)

  afterAll(async () => {
    for (const service of services) await service.stop()
    await db?.end()
    await receiver?.close()
    await database?.close()
  })

  const startIam = async () => {
    const port = await freePort()
    const service = await spawnService({
      entry: "apps/iam/src/main.ts",
      cwd: root,
      url: `http://127.0.0.1:${port}`,
      env: { ...env, IAM_PORT: String(port), IAM_DRAIN_SECONDS: "1" }
    })
    services.push(service)
    return service
  }

  it("SIGKILL mid-batch: a second process delivers the rest; none lost, every request verified", async () => {
    const registered = await runToExit({
      entry: "apps/iam/src/cli.ts",
      cwd: root,
      env,
      args: ["applications", "register", "--app-id", "listener", "--name", "Listener", "--callback-url", "https://listener.example.com/cb", "--webhook-url", receiver.url]
    })
    expect({ code: registered.code, stderr: registered.stderr }).toEqual({ code: 0, stderr: "" })
    const printed = JSON.parse(registered.stdout) as { webhook: { key_version: number; webhook_signing_secret: string } }
    expect(printed.webhook.key_version).toBe(1)
    secret = printed.webhook.webhook_signing_secret

    const first = await startIam()
    // The deliveries of 300 events, queued as the events' transactions queue them.
    await db.query(
      `INSERT INTO iam_webhook_deliveries (id, event_id, event_type, event_occurred_at, receiver, body, manual_replays, key_version,
                                           status, attempts, next_attempt_at, created_at)
       SELECT gen_random_uuid(), 'evt_fault_' || n, 'organization.updated.v1', now(), 'app:listener',
              json_build_object('id', 'evt_fault_' || n, 'type', 'organization.updated.v1')::text, 0, 1, 'pending', 0, now(), now()
       FROM generate_series(1, $1::int) AS n`,
      [DELIVERIES]
    )

    // Well into the work, the receiver stops answering: the process holds claims on what it sent, and is killed with them.
    await vi.waitFor(() => expect(receiver.received.size).toBeGreaterThanOrEqual(60), { timeout: 120_000, interval: 20 })
    receiver.stall()
    await vi.waitFor(() => expect(receiver.unanswered()).toBeGreaterThan(0), { timeout: 60_000, interval: 20 })
    first.process.kill("SIGKILL")
    await first.exited
    const { rows: held } = await db.query<{ id: string }>(
      "SELECT id::text AS id FROM iam_webhook_deliveries WHERE status = 'pending' AND claimed_until IS NOT NULL"
    )
    expect(held.length).toBeGreaterThan(0)
    const receivedBeforeKill = new Map(receiver.received)
    receiver.release()

    // A second process on the same database; the killed one's claims pass to it when their lease ends. They are
    // ended in the table rather than waited out (see expireClaims).
    await expireClaims(db, "iam_webhook_deliveries", held.map((row) => row.id))
    await startIam()
    await vi.waitFor(async () => {
      const { rows } = await db.query<{ status: string; count: number }>(
        "SELECT status, count(*)::int AS count FROM iam_webhook_deliveries GROUP BY status"
      )
      expect(Object.fromEntries(rows.map((row) => [row.status, row.count]))).toEqual({ delivered: DELIVERIES })
    }, { timeout: 240_000, interval: 500 })

    const { rows } = await db.query<{ id: string }>("SELECT id::text AS id FROM iam_webhook_deliveries")
    expect(rows.filter((row) => !receiver.received.has(row.id))).toEqual([])
    expect(receiver.refused).toEqual([])
    // At least once: only deliveries the killed process had sent without recording them arrive twice.
    const repeated = [...receiver.received].filter(([, count]) => count > 1).map(([id]) => id)
    expect(repeated.every((id) => held.some((row) => row.id === id) && receivedBeforeKill.has(id))).toBe(true)
  }, 420_000)
})
