import type { SpawnedService } from "@platform/testkit"
import { mkdtempSync } from "node:fs"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import pg from "pg"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { provisionedDatabase, runAccountsCli, startAccounts } from "./support/accountsProcess.ts"
import { expireClaims } from "./support/expireClaims.ts"

const DELIVERIES = 1000

/**
 * A receiver counting every request per delivery id as it arrives, answering 200 after a few
 * milliseconds — or, while stalled, not at all until released — and noticing when one delivery
 * id arrives while an earlier request for it is still open.
 */
const startReceiver = async () => {
  const received = new Map<string, number>()
  const open = new Set<string>()
  const overlapping: Array<string> = []
  let stalled = false
  const held: Array<() => void> = []
  const server: Server = createServer((request, response) => {
    const deliveryId = String(request.headers["x-accounts-delivery-id"])
    if (open.has(deliveryId)) overlapping.push(deliveryId)
    open.add(deliveryId)
    received.set(deliveryId, (received.get(deliveryId) ?? 0) + 1)
    request.resume()
    request.on("end", () => {
      const answer = () => {
        open.delete(deliveryId)
        response.writeHead(200).end()
      }
      if (stalled) held.push(answer)
      else setTimeout(answer, 5)
    })
    // A request whose sender died is no longer open.
    response.on("close", () => open.delete(deliveryId))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    overlapping,
    stall: () => (stalled = true),
    unanswered: () => held.length,
    release: () => {
      stalled = false
      for (const answer of held.splice(0)) answer()
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

describe("webhook delivery across processes: a worker killed in the middle, another finishing", () => {
  let database: Awaited<ReturnType<typeof provisionedDatabase>>
  let receiver: Awaited<ReturnType<typeof startReceiver>>
  let db: pg.Client
  const services: Array<SpawnedService> = []
  const dataDir = mkdtempSync(join(tmpdir(), "accounts-webhooks-"))
  let env: Record<string, string>

  beforeAll(async () => {
    database = await provisionedDatabase()
    receiver = await startReceiver()
    env = { ACCOUNTS_DATABASE_URL: database.url, ACCOUNTS_DATA_DIR: dataDir, ACCOUNTS_WEBHOOK_ALLOW_LOOPBACK: "true" }
    db = new pg.Client({ connectionString: database.url })
    await db.connect()
  }, 120_000)

  afterAll(async () => {
    for (const service of services) await service.stop()
    await db?.end()
    await receiver?.close()
    await database?.close()
  })

  const statusCounts = async () => {
    const { rows } = await db.query<{ status: string; count: number }>(
      "SELECT status, count(*)::int AS count FROM webhook_deliveries GROUP BY status"
    )
    return Object.fromEntries(rows.map((row) => [row.status, row.count]))
  }

  it("SIGKILL during 1,000 deliveries: two other processes finish them; none lost, repeats only of what the killed one held", async () => {
    const first = await startAccounts(env)
    services.push(first)
    await runAccountsCli(["carbons", "create", "--email", "owner@example.com", "--id", "c:hookowner", "--display-name", "Owner"], env)
    const created = await runAccountsCli([
      "apps",
      "create",
      "--app-id",
      "listener",
      "--name",
      "Listener",
      "--redirect-uri",
      "https://listener.example.com/cb",
      "--owner",
      "c:hookowner"
    ], env)
    const { app_secret } = JSON.parse(created.stdout) as { app_secret: string }
    const basic = `Basic ${Buffer.from(`listener:${app_secret}`).toString("base64")}`
    const set = await fetch(`${first.url}/v1/apps/listener/webhook`, {
      method: "PUT",
      headers: { authorization: basic, "content-type": "application/json" },
      body: JSON.stringify({ url: receiver.url })
    })
    expect(set.status).toBe(200)

    // The deliveries of 1,000 events, queued as the events' transactions queue them.
    await db.query(
      `INSERT INTO webhook_deliveries (id, event_id, event_type, event_occurred_at, receiver, body, manual_replays,
                                       status, attempts, next_attempt_at, created_at)
       SELECT gen_random_uuid(), 'evt_fault_' || n, 'ping', now(), 'app:listener',
              json_build_object('event_id', 'evt_fault_' || n, 'type', 'ping')::text, 0, 'pending', 0, now(), now()
       FROM generate_series(1, $1::int) AS n`,
      [DELIVERIES]
    )

    // Once the first process is well into the work, the receiver stops answering: the process then
    // holds claims on deliveries it has sent, and is killed with them.
    await vi.waitFor(() => expect(receiver.received.size).toBeGreaterThanOrEqual(200), { timeout: 120_000, interval: 20 })
    receiver.stall()
    await vi.waitFor(() => expect(receiver.unanswered()).toBeGreaterThan(0), { timeout: 60_000, interval: 20 })
    first.process.kill("SIGKILL")
    await first.exited
    const { rows: held } = await db.query<{ id: string }>(
      "SELECT id::text AS id FROM webhook_deliveries WHERE status = 'pending' AND claimed_until IS NOT NULL"
    )
    const heldByKilled = new Set(held.map((row) => row.id))
    const receivedBeforeKill = new Map(receiver.received)
    expect(heldByKilled.size).toBeGreaterThan(0)
    receiver.release()

    // Two processes take over on the same database; the killed one's claims pass to them when their lease ends.
    // They are ended in the table rather than waited out (see expireClaims).
    await expireClaims(db, "webhook_deliveries", [...heldByKilled])
    for (let i = 0; i < 2; i++) services.push(await startAccounts(env))
    await vi.waitFor(async () => expect(await statusCounts()).toEqual({ delivered: DELIVERIES }), {
      timeout: 240_000,
      interval: 500
    })

    const { rows } = await db.query<{ id: string }>("SELECT id::text AS id FROM webhook_deliveries")
    const missing = rows.filter((row) => !receiver.received.has(row.id))
    expect(missing).toEqual([])
    const repeated = [...receiver.received].filter(([, count]) => count > 1).map(([id]) => id)
    // At least once: exactly the deliveries the killed process had sent and not yet recorded arrive twice.
    const sentByKilledUnrecorded = [...heldByKilled].filter((id) => receivedBeforeKill.has(id)).sort()
    expect(repeated.sort()).toEqual(sentByKilledUnrecorded)
    expect(repeated.every((id) => receiver.received.get(id) === 2)).toBe(true)
    // Never one delivery in flight twice at once, across the three processes.
    expect(receiver.overlapping).toEqual([])
    process.stdout.write(
      `webhook faults: ${DELIVERIES} delivered, ${receivedBeforeKill.size} before the kill, ${heldByKilled.size} held by the killed process, ${repeated.length} delivered twice\n`
    )
  }, 420_000)
})
