import { layer } from "@effect/vitest"
import { messageAfter, messagesTo, ServiceUrl } from "@platform/testkit"
import { Effect } from "effect"
import { expect } from "vitest"
import { carbonIdentity } from "../src/identities/fromAccounts.ts"
import { IamSessions } from "../src/sessions/IamSessions.ts"
import { accountsHold, newCarbon } from "./support/carbons.ts"
import { iamClient, IamTest } from "./support/IamTest.ts"
import { stepUp } from "./support/stepUp.ts"

/** A Carbon held by accounts with two sessions open (as two devices would have after logging in). */
const carbonWithTwoSessions = (name: string) =>
  Effect.gen(function*() {
    const carbon = yield* accountsHold(newCarbon(name))
    const sessions = yield* IamSessions
    const identity = carbonIdentity({ ...carbon, id: carbon.id ?? "" })
    return { carbon, here: yield* sessions.open(identity, "code"), there: yield* sessions.open(identity, "code") }
  }).pipe(Effect.provide(IamSessions.Default))

const revoke = (accessToken: string, sessionId: string, stepUpToken?: string) =>
  Effect.flatMap(ServiceUrl, (url) =>
    Effect.promise(async () => {
      const response = await fetch(`${url}/api/v1/sessions/${sessionId}`, {
        method: "DELETE",
        headers: { authorization: `Bearer ${accessToken}`, ...(stepUpToken === undefined ? {} : { "x-step-up-token": stepUpToken }) }
      })
      return { status: response.status, body: response.status === 204 ? undefined : await response.json() as { error: { code: string } } }
    }))

layer(IamTest(), { excludeTestServices: true })("iam step-up", (it) => {
  it.effect("revoking a session needs a step-up token for that session: without one, or with one for another, it is refused", () =>
    Effect.gen(function*() {
      const { carbon, here, there } = yield* carbonWithTwoSessions("ada")
      const email = carbon.verified_emails[0]!
      expect((yield* revoke(here.access_token, there.session_id)).body?.error.code).toBe("step_up_required")

      const forHere = yield* stepUp(here.access_token, email, "account.session_revoke", here.session_id)
      expect(forHere).toMatchObject({ action: "account.session_revoke", resource_id: here.session_id, application_id: null })
      expect(forHere.step_up_token).toMatch(/^sup_/)
      expect(Date.parse(forHere.expires_at) - Date.now()).toBeLessThanOrEqual(5 * 60_000)
      expect((yield* revoke(here.access_token, there.session_id, forHere.step_up_token)).body?.error.code).toBe("step_up_mismatch")

      const forThere = yield* stepUp(here.access_token, email, "account.session_revoke", there.session_id)
      expect((yield* revoke(here.access_token, there.session_id, forThere.step_up_token)).status).toBe(204)
      const gone = yield* iamClient({ authorization: `Bearer ${there.access_token}` })
      expect(yield* Effect.flip(gone.sessions.current())).toMatchObject({ code: "unauthenticated" })
      expect((yield* revoke(here.access_token, here.session_id, forThere.step_up_token)).body?.error.code).toBe("step_up_mismatch")
    }))

  it.effect("revoking every session needs a token for account.sessions_revoke_all on the identity; it is used once", () =>
    Effect.gen(function*() {
      const { carbon, here, there } = yield* carbonWithTwoSessions("bo")
      const client = yield* iamClient({ authorization: `Bearer ${here.access_token}` })
      const forOne = yield* stepUp(here.access_token, carbon.verified_emails[0]!, "account.session_revoke", carbon.uuid)
      const withToken = (token: string) => iamClient({ authorization: `Bearer ${here.access_token}`, "x-step-up-token": token })
      expect(yield* Effect.flip((yield* withToken(forOne.step_up_token)).sessions.revokeAll())).toMatchObject({ code: "step_up_mismatch" })

      const forAll = yield* stepUp(here.access_token, carbon.verified_emails[0]!, "account.sessions_revoke_all", carbon.uuid)
      expect(yield* (yield* withToken(forAll.step_up_token)).sessions.revokeAll()).toEqual({ ended_sessions: 2 })
      for (const pair of [here, there]) {
        expect(yield* Effect.flip((yield* iamClient({ authorization: `Bearer ${pair.access_token}` })).sessions.current()))
          .toMatchObject({ code: "unauthenticated" })
      }
      expect(yield* Effect.flip(client.sessions.revokeAll())).toMatchObject({ code: "unauthenticated" })
    }))

  it.effect("a step-up code answers only its own Carbon's challenge; a Silicon cannot step up (403 carbon_required)", () =>
    Effect.gen(function*() {
      const { carbon, here } = yield* carbonWithTwoSessions("cy")
      const other = yield* carbonWithTwoSessions("di")
      const client = yield* iamClient({ authorization: `Bearer ${here.access_token}` })
      const email = carbon.verified_emails[0]!
      const seen = yield* messagesTo(email)
      const challenge = yield* client.stepUp.createChallenge({
        payload: { action: "account.session_revoke", resource_id: here.session_id, channel: "email" }
      })
      const code = (yield* messageAfter(email, seen)).code ?? ""
      const stranger = yield* iamClient({ authorization: `Bearer ${other.here.access_token}` })
      expect(yield* Effect.flip(stranger.stepUp.verify({ path: { session_id: challenge.session_id }, payload: { code } })))
        .toMatchObject({ code: "challenge_not_found" })

      const silicon = yield* Effect.flatMap(IamSessions, (sessions) =>
        sessions.open({ uuid: crypto.randomUUID(), id: "si:helper", kind: "silicon", display_name: "Helper", status: "active" }, "silicon_token")).pipe(
          Effect.provide(IamSessions.Default)
        )
      const bot = yield* iamClient({ authorization: `Bearer ${silicon.access_token}` })
      expect(
        yield* Effect.flip(bot.stepUp.createChallenge({ payload: { action: "silicon.rotate_token", resource_id: "x", channel: "email" } }))
      ).toMatchObject({ code: "carbon_required", status: 403 })
    }))
})
