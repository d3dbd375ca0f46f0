import { layer } from "@effect/vitest"
import { Duration, Effect, TestClock } from "effect"
import { expect } from "vitest"
import { FAKE_APP_ID, FakeIam, IamApplicationClient } from "../src/index.ts"

// The stand-in for IAM that spec 3's services test with: the same rules as IAM (apps/iam/test/application-sessions.test.ts).

const ada = { uuid: "0b9f3a52-0000-4000-8000-00000000000a", id: "c:ada", kind: "carbon" } as const

const errorOf = <A>(effect: Effect.Effect<A, { readonly _tag: string }>) =>
  Effect.map(Effect.flip(effect), (error) => ("error" in error ? error.error : error._tag))

const login = (orgIds: ReadonlyArray<string> = ["org_a"]) =>
  Effect.flatMap(FakeIam, (iam) => iam.issueShortLivedToken({ appId: FAKE_APP_ID, subject: ada, orgIds, scopes: ["identity"] }))

layer(IamApplicationClient.Test)("FakeIam", (it) => {
  it.effect("an SLT is exchanged once, by its application, within 2 minutes", () =>
    Effect.gen(function*() {
      const client = yield* IamApplicationClient
      const other = (yield* FakeIam).clientFor("other-app")
      const slt = yield* login()
      expect(yield* errorOf(other.exchange(slt))).toBe("invalid_grant")
      const fresh = yield* login()
      const tokens = yield* client.exchange(fresh)
      expect(tokens).toMatchObject({ sub: ada.uuid, subject_kind: "carbon", username: "c:ada", org_ids: ["org_a"], scope: "identity", expires_in: 1800 })
      expect(yield* errorOf(client.exchange(fresh))).toBe("invalid_grant")
      const late = yield* login()
      yield* TestClock.adjust(Duration.minutes(2))
      expect(yield* errorOf(client.exchange(late))).toBe("invalid_grant")
    }))

  it.effect("a refresh rotates; a reused refresh token ends the session", () =>
    Effect.gen(function*() {
      const client = yield* IamApplicationClient
      const tokens = yield* client.exchange(yield* login())
      const rotated = yield* client.refresh(tokens.refresh_token)
      expect(yield* client.introspect(rotated.access_token)).toMatchObject({ active: true, token_type: "Bearer", client_id: FAKE_APP_ID })
      expect(yield* errorOf(client.refresh(tokens.refresh_token))).toBe("invalid_grant")
      expect(yield* client.introspect(rotated.access_token)).toEqual({ active: false })
      expect(yield* errorOf(client.refresh(rotated.refresh_token))).toBe("invalid_grant")

      const again = yield* client.exchange(yield* login())
      const retried = yield* client.refresh(again.refresh_token, { idempotencyKey: "k1" })
      expect(yield* client.refresh(again.refresh_token, { idempotencyKey: "k1" })).toEqual(retried)
      expect(yield* client.introspect(retried.access_token)).toMatchObject({ active: true })
    }))

  it.effect("a session ends with its parent sessions, loses a removed organization, and ends on revocation", () =>
    Effect.gen(function*() {
      const client = yield* IamApplicationClient
      const iam = yield* FakeIam
      const first = yield* client.exchange(yield* login(["org_a", "org_b"]))
      yield* iam.removeMembership(ada.uuid, "org_a")
      expect(yield* client.introspect(first.access_token)).toMatchObject({ active: true, org_ids: ["org_b"] })
      yield* iam.removeMembership(ada.uuid, "org_b")
      expect(yield* client.introspect(first.access_token)).toEqual({ active: false })

      const second = yield* client.exchange(yield* login(["org_c"]))
      yield* client.revoke(second.refresh_token)
      expect(yield* client.introspect(second.access_token)).toEqual({ active: false })

      const third = yield* client.exchange(yield* login(["org_d"]))
      yield* TestClock.adjust(Duration.minutes(30))
      expect(yield* client.introspect(third.access_token)).toEqual({ active: false })
      expect(yield* client.introspect(third.refresh_token)).toMatchObject({ active: true })
      yield* iam.endParentSessions(ada.uuid)
      expect(yield* client.introspect(third.refresh_token)).toEqual({ active: false })
    }))

  it.effect("an on-behalf-of proof is verified once, by its audience, within 60 seconds", () =>
    Effect.gen(function*() {
      const client = yield* IamApplicationClient
      const audience = (yield* FakeIam).clientFor("storage")
      const tokens = yield* client.exchange(yield* login(["org_e"]))
      const proof = yield* client.proveOnBehalfOf({ accessToken: tokens.access_token, audience: "storage" })
      expect(yield* audience.verifyProof(proof.proof)).toMatchObject({ active: true, client_id: FAKE_APP_ID, sub: ada.uuid })
      expect(yield* audience.verifyProof(proof.proof)).toEqual({ active: false })
      const misdirected = yield* client.proveOnBehalfOf({ accessToken: tokens.access_token, audience: "storage" })
      expect(yield* client.verifyProof(misdirected.proof)).toEqual({ active: false })
      expect(yield* audience.verifyProof(misdirected.proof)).toEqual({ active: false })
      const late = yield* client.proveOnBehalfOf({ accessToken: tokens.access_token, audience: "storage" })
      yield* TestClock.adjust(Duration.seconds(60))
      expect(yield* audience.verifyProof(late.proof)).toEqual({ active: false })
      expect(yield* errorOf(client.proveOnBehalfOf({ accessToken: tokens.refresh_token, audience: "storage" }))).toBe("invalid_grant")
    }))
})
