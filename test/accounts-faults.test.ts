import { type TcpProxy, tcpProxy } from "@platform/testkit"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { setTimeout as sleep } from "node:timers/promises"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { codesFor, provisionedDatabase, runAccountsCli, startAccounts } from "./support/accountsProcess.ts"

interface Answer {
  readonly status: number
  readonly headers: Headers
  readonly text: string
}

const send = async (url: string, init: RequestInit): Promise<Answer> => {
  const response = await fetch(url, init)
  return { status: response.status, headers: response.headers, text: await response.text() }
}

const postJson = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  send(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) })

const refresh = (base: string, refreshToken: string, key: string) =>
  send(`${base}/v1/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "idempotency-key": key },
    body: new URLSearchParams({ grant_type: "refresh_token", client_id: "accounts", refresh_token: refreshToken }).toString()
  })

/**
 * Signs `email` in from a terminal (code read from the development mailbox) and returns the
 * refresh token. Each person signs in from a network of their own (behind a trusted proxy),
 * so that the test stays within the codes-per-network limit.
 */
const signIn = async (base: string, dataDir: string, email: string, network: string): Promise<string> => {
  const sent = codesFor(dataDir, email).length
  const start = await postJson(`${base}/v1/cli/login/start`, { email }, { "x-forwarded-for": network })
  expect(start.status).toBe(200)
  const { challenge_id } = JSON.parse(start.text) as { challenge_id: string }
  await expect.poll(() => codesFor(dataDir, email).length, { timeout: 60_000 }).toBe(sent + 1)
  const verified = await postJson(`${base}/v1/cli/login/verify`, {
    challenge_id,
    code: codesFor(dataDir, email)[sent],
    client_label: "fault test"
  })
  expect(verified.status).toBe(200)
  return (JSON.parse(verified.text) as { refresh_token: string }).refresh_token
}

/** Retries one refresh with its key, as spec 1 tells a client to, until it gets a final answer. */
const retryUntilAnswered = async (base: string, refreshToken: string, key: string): Promise<Answer> => {
  for (let attempt = 1; ; attempt++) {
    const answer = await refresh(base, refreshToken, key).catch(() => undefined)
    if (answer !== undefined && answer.status !== 503 && answer.status !== 409) return answer
    if (attempt === 100) throw new Error(`no final answer for ${key}: ${answer?.status} ${answer?.text}`)
    await sleep(200)
  }
}

describe("accounts under faults (real processes)", () => {
  let database: { url: string; close: () => Promise<void> }
  beforeAll(async () => {
    database = await provisionedDatabase()
  }, 120_000)
  afterAll(() => database.close())

  it("kill -9 during parallel refreshes: each client's retry with the same key keeps its sign-in (0 of 20 lost, two rounds)", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "accounts-kill-"))
    const env = { ACCOUNTS_DATABASE_URL: database.url, ACCOUNTS_DATA_DIR: dataDir, ACCOUNTS_TRUST_PROXY: "true" }
    let service = await startAccounts(env)
    const port = new URL(service.url).port
    try {
      // Five people, each signed in from four terminals per round: 20 sign-ins (refresh families) a round.
      const people = Array.from({ length: 5 }, (_, i) => `person-${i}@example.com`)
      await Promise.all(people.map((email, i) =>
        runAccountsCli(["carbons", "create", "--email", email, "--id", `c:person_${i}`, "--display-name", `Person ${i}`], env)))
      const signInFourTimes = async (email: string, person: number) => {
        const tokens: Array<string> = []
        for (let i = 0; i < 4; i++) tokens.push(await signIn(service.url, dataDir, email, `198.51.100.${person + 1}`))
        return tokens
      }
      let lost = 0
      for (const [round, killAfterMs] of [[1, 40], [2, 80]] as const) {
        const tokens = (await Promise.all(people.map(signInFourTimes))).flat()
        const keys = tokens.map((_, i) => `round-${round}-refresh-${i}`)
        const inFlight = tokens.map((token, i) => refresh(service.url, token, keys[i]!).catch(() => undefined))
        await sleep(killAfterMs)
        service.process.kill("SIGKILL")
        await service.exited
        const seenBeforeKill = await Promise.all(inFlight)
        service = await startAccounts(env, Number(port))

        const retried = await Promise.all(tokens.map((token, i) => retryUntilAnswered(service.url, token, keys[i]!)))
        for (const [i, answer] of retried.entries()) {
          if (answer.status !== 200) {
            lost++
            continue
          }
          // An answer the client did see before the crash is the one its retry gets again.
          const seen = seenBeforeKill[i]
          if (seen?.status === 200) expect(answer.text).toBe(seen.text)
          const next = (JSON.parse(answer.text) as { refresh_token: string }).refresh_token
          const stillAlive = await refresh(service.url, next, `${keys[i]}-after`)
          if (stillAlive.status !== 200) lost++
        }
      }
      expect(lost).toBe(0)
    } finally {
      await service.stop()
    }
  }, 300_000)

  describe("database outage through a TCP proxy", () => {
    let proxy: TcpProxy
    let base: string
    let stop: () => Promise<number | null>
    beforeAll(async () => {
      const target = new URL(database.url)
      proxy = await tcpProxy(target.hostname, Number(target.port || 5432))
      target.host = `127.0.0.1:${proxy.port}`
      const service = await startAccounts({
        ACCOUNTS_DATABASE_URL: target.toString(),
        ACCOUNTS_DATA_DIR: mkdtempSync(join(tmpdir(), "accounts-outage-"))
      })
      base = service.url
      stop = service.stop
    }, 120_000)
    afterAll(async () => {
      await stop()
      await proxy.close()
    })

    const timed = async (request: () => Promise<Answer>) => {
      const started = performance.now()
      const answer = await request()
      return { answer, seconds: (performance.now() - started) / 1000 }
    }

    const expectOutageAnswers = async () => {
      const token = await timed(() => refresh(base, "sar_unknown", "outage-token"))
      expect(token.answer.status).toBe(503)
      expect(JSON.parse(token.answer.text)).toMatchObject({ error: "temporarily_unavailable" })
      expect(token.answer.headers.get("retry-after")).toMatch(/^\d+$/)
      expect(token.seconds).toBeLessThan(3)

      const report = await timed(() => postJson(`${base}/v1/reports`, { message: "during the outage" }))
      expect(report.answer.status).toBe(503)
      expect(report.answer.headers.get("content-type")).toMatch(/^application\/json/)
      expect(JSON.parse(report.answer.text)).toMatchObject({ error: { code: "service_unavailable" } })
      expect(report.answer.headers.get("retry-after")).toMatch(/^\d+$/)
      expect(report.seconds).toBeLessThan(3)
    }

    const expectBackWithin5Seconds = async () => {
      const restored = performance.now()
      proxy.restore()
      for (;;) {
        const answer = await postJson(`${base}/v1/reports`, { message: "back again" })
        if (answer.status === 201) break
        expect(performance.now() - restored).toBeLessThan(5000)
        await sleep(100)
      }
      expect((performance.now() - restored) / 1000).toBeLessThan(5)
      // The retry of the refresh that failed during the outage runs now, with nothing left holding its key.
      const retried = await refresh(base, "sar_unknown", "outage-token")
      expect(JSON.parse(retried.text)).toMatchObject({ error: "invalid_grant" })
    }

    it.each([
      ["connections cut", () => proxy.cut()],
      ["packets dropped (stalled, not refused)", () => proxy.stall()]
    ])("%s: 503 in the service's and in RFC 6749 shape within 3 s; 2xx again within 5 s", async (_, outage) => {
      expect((await postJson(`${base}/v1/reports`, { message: "before" })).status).toBe(201)
      outage()
      await expectOutageAnswers()
      await expectBackWithin5Seconds()
    }, 60_000)
  })
})
