import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { baseUrl, TestServerLive } from "./TestApi.ts"

// On the real clock: the route's budget is 150 ms and its handler takes 1 second, uninterruptibly.
layer(TestServerLive, { excludeTestServices: true })("time budget per request", (it) => {
  it.effect("a request past its route's budget is answered 503 request_timeout while the work finishes detached", () =>
    Effect.gen(function*() {
      const url = yield* baseUrl
      const answer = yield* Effect.promise(async () => {
        const response = await fetch(`${url}/v1/slow`)
        return { status: response.status, body: (await response.json()) as { error: { code: string } } }
      })
      expect(answer.status).toBe(503)
      expect(answer.body.error.code).toBe("request_timeout")
    }))
})
