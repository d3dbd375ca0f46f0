import { describe, expect, it } from "vitest"
import { provisionedDatabase, runAccountsCli, startAccounts } from "./support/accountsProcess.ts"

/** A stream opened with fetch; `text()` reads until the server ends the response. */
const openStream = async (url: string, authorization: string) => {
  const controller = new AbortController()
  const response = await fetch(`${url}/v1/events/stream`, { headers: { authorization }, signal: controller.signal })
  return { response, abort: () => controller.abort() }
}

describe("accounts event streams in two processes on one database", () => {
  it("5 streams per app across both processes; SIGTERM ends a process's streams with stream.closed and frees their places", async () => {
    const database = await provisionedDatabase()
    // A drain deadline far above what the test waits: the streams must end because the server closes them.
    const env = { ACCOUNTS_DATABASE_URL: database.url, ACCOUNTS_DRAIN_SECONDS: "120" }
    const [first, second] = await Promise.all([startAccounts(env), startAccounts(env)])
    try {
      const created = await runAccountsCli(
        ["apps", "create", "--app-id", "streamer", "--name", "Streamer", "--redirect-uri", "https://rp.example.test/cb"],
        env
      )
      const { app_secret } = JSON.parse(created.stdout) as { app_secret: string }
      const authorization = `Basic ${Buffer.from(`streamer:${app_secret}`).toString("base64")}`

      const onFirst = await Promise.all([1, 2, 3].map(() => openStream(first!.url, authorization)))
      const onSecond = await Promise.all([1, 2].map(() => openStream(second!.url, authorization)))
      expect([...onFirst, ...onSecond].map((stream) => stream.response.status)).toEqual([200, 200, 200, 200, 200])
      for (const service of [first!, second!]) {
        const sixth = await openStream(service.url, authorization)
        expect(sixth.response.status).toBe(429)
        expect(sixth.response.headers.get("retry-after")).toBe("30")
        expect(((await sixth.response.json()) as { error: { code: string } }).error.code).toBe("too_many_streams")
      }

      first!.process.kill("SIGTERM")
      const bodies = await Promise.all(onFirst.map((stream) => stream.response.text()))
      for (const body of bodies) {
        expect(body.startsWith("retry: 5000\n")).toBe(true)
        expect(body.endsWith(`event: stream.closed\ndata: {"reason":"server_shutdown"}\n\n`)).toBe(true)
      }
      expect(await first!.exited).toBe(0)
      // The stopped process gave its three places back.
      const again = await Promise.all([1, 2, 3].map(() => openStream(second!.url, authorization)))
      expect(again.map((stream) => stream.response.status)).toEqual([200, 200, 200])
      for (const stream of [...onSecond, ...again]) stream.abort()
    } finally {
      await Promise.all([first!.stop(), second!.stop()])
      await database.close()
    }
  }, 300_000)
})
