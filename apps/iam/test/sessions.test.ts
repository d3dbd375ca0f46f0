import { layer } from "@effect/vitest"
import { ServiceUrl } from "@platform/testkit"
import { Effect, Either } from "effect"
import { randomUUID } from "node:crypto"
import { expect } from "vitest"
import type { Identity } from "../src/identities/Identity.ts"
import { IdentitiesRepo } from "../src/identities/IdentitiesRepo.ts"
import { IamSessions } from "../src/sessions/IamSessions.ts"
import { iamClient, IamTest } from "./support/IamTest.ts"

/** A Carbon of this test alone, as accounts would have vouched for it at login. */
const carbon = (): Identity => {
  const uuid = randomUUID()
  return { uuid, id: `c:ada${uuid.slice(0, 8)}`, kind: "carbon", display_name: "Ada", status: "active" }
}

const loggedIn = (identity = carbon()) =>
  Effect.flatMap(IamSessions, (sessions) => sessions.open(identity, "code")).pipe(Effect.provide(IamSessions.Default))

const bearer = (accessToken: string) => iamClient({ authorization: `Bearer ${accessToken}` })

const refreshOverHttp = (refreshToken: string, idempotencyKey?: string) =>
  Effect.flatMap(ServiceUrl, (url) =>
    Effect.promise(async () => {
      const response = await fetch(`${url}/api/v1/sessions/refresh`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(idempotencyKey === undefined ? {} : { "idempotency-key": idempotencyKey })
        },
        body: JSON.stringify({ refresh_token: refreshToken })
      })
      return { status: response.status, headers: response.headers, body: await response.json() as Record<string, unknown> }
    }))

layer(IamTest(), { excludeTestServices: true })("iam sessions", (it) => {
  it.effect("a refresh rotates the pair; presenting the spent token again ends the family: every token of it stops", () =>
    Effect.gen(function*() {
      const first = yield* loggedIn()
      const client = yield* iamClient()
      const second = yield* client.sessionRefresh.refresh({ payload: { refresh_token: first.refresh_token } })
      expect(second).toMatchObject({ token_type: "Bearer", expires_in: 1800, session_id: first.session_id })
      expect(second.refresh_token).toMatch(/^irt_/)
      expect(second.refresh_token).not.toBe(first.refresh_token)
      expect((yield* (yield* bearer(second.access_token)).sessions.current()).session_id).toBe(first.session_id)

      const reuse = yield* Effect.flip(client.sessionRefresh.refresh({ payload: { refresh_token: first.refresh_token } }))
      expect(reuse).toMatchObject({ _tag: "Unauthenticated", code: "unauthenticated" })
      expect(reuse.message).toContain("already used")
      for (const token of [first.access_token, second.access_token]) {
        expect(yield* Effect.flip((yield* bearer(token)).sessions.current())).toMatchObject({ code: "unauthenticated" })
      }
      const successor = yield* Effect.flip(client.sessionRefresh.refresh({ payload: { refresh_token: second.refresh_token } }))
      expect(successor).toMatchObject({ code: "unauthenticated" })
    }))

  it.effect("an exact retry with the original Idempotency-Key replays the answer instead of counting as a reuse", () =>
    Effect.gen(function*() {
      const pair = yield* loggedIn()
      const sent = yield* refreshOverHttp(pair.refresh_token, "refresh-retry-1")
      expect(sent.status).toBe(200)
      const retried = yield* refreshOverHttp(pair.refresh_token, "refresh-retry-1")
      expect(retried.status).toBe(200)
      expect(retried.headers.get("idempotent-replayed")).toBe("true")
      expect(retried.body).toEqual(sent.body)
      const current = yield* (yield* bearer(String(sent.body["access_token"]))).sessions.current()
      expect(current.session_id).toBe(pair.session_id)
      // Without the key the same request is a second use of a spent token.
      expect((yield* refreshOverHttp(pair.refresh_token)).status).toBe(401)
    }))

  it.effect("of 20 parallel refreshes with one token exactly one succeeds; the others are refused as reuses", () =>
    Effect.gen(function*() {
      const pair = yield* loggedIn()
      const client = yield* iamClient()
      const results = yield* Effect.all(
        Array.from({ length: 20 }, () => Effect.either(client.sessionRefresh.refresh({ payload: { refresh_token: pair.refresh_token } }))),
        { concurrency: "unbounded" }
      )
      expect(results.filter(Either.isRight)).toHaveLength(1)
      const refusals = results.filter(Either.isLeft).map((result) => result.left)
      expect(refusals.map((refusal) => refusal._tag === "Unauthenticated" ? refusal.code : refusal._tag)).toEqual(
        Array.from({ length: 19 }, () => "unauthenticated")
      )
    }))

  it.effect("a refresh for an identity the projection no longer holds active ends its session", () =>
    Effect.gen(function*() {
      const identity = carbon()
      const pair = yield* loggedIn(identity)
      yield* Effect.flatMap(IdentitiesRepo, (repo) => repo.remember({ ...identity, status: "deleted" })).pipe(
        Effect.provide(IdentitiesRepo.Default)
      )
      const client = yield* iamClient()
      const refused = yield* Effect.flip(client.sessionRefresh.refresh({ payload: { refresh_token: pair.refresh_token } }))
      expect(refused).toMatchObject({ code: "unauthenticated" })
      expect(refused.message).toContain("no longer active")
      // Active again, the family stays ended.
      yield* Effect.flatMap(IdentitiesRepo, (repo) => repo.remember(identity)).pipe(Effect.provide(IdentitiesRepo.Default))
      expect(yield* Effect.flip(client.sessionRefresh.refresh({ payload: { refresh_token: pair.refresh_token } })))
        .toMatchObject({ code: "unauthenticated" })
    }))

  it.effect("the caller's sessions are listed newest first in pages; logout ends this one and clears the cookie", () =>
    Effect.gen(function*() {
      const identity = carbon()
      const older = yield* loggedIn(identity)
      const newer = yield* loggedIn(identity)
      const client = yield* bearer(newer.access_token)
      const firstPage = yield* client.sessions.list({ urlParams: { limit: 1 } })
      expect(firstPage.items).toEqual([expect.objectContaining({ session_id: newer.session_id, method: "code", current: true })])
      expect(firstPage.next_cursor).not.toBeNull()
      const secondPage = yield* client.sessions.list({ urlParams: { limit: 1, cursor: firstPage.next_cursor ?? "" } })
      expect(secondPage).toEqual({
        items: [expect.objectContaining({ session_id: older.session_id, current: false })],
        next_cursor: null
      })

      const url = yield* ServiceUrl
      const logout = yield* Effect.promise(() =>
        fetch(`${url}/api/v1/logout`, { method: "POST", headers: { authorization: `Bearer ${newer.access_token}` } })
      )
      expect(logout.status).toBe(204)
      expect(logout.headers.get("set-cookie")).toMatch(/^iam_session=; Max-Age=0; Path=\/; HttpOnly; SameSite=Lax/)
      expect(yield* Effect.flip(client.sessions.current())).toMatchObject({ code: "unauthenticated" })
      const remaining = yield* (yield* bearer(older.access_token)).sessions.list({ urlParams: {} })
      expect(remaining.items.map((item) => item.session_id)).toEqual([older.session_id])
    }))
})
