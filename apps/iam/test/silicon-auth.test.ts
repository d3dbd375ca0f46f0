import { layer } from "@effect/vitest"
import { FakeAccounts } from "@platform/accounts-identity-api"
import { Effect, Layer } from "effect"
import { expect } from "vitest"
import { IamSessions } from "../src/sessions/IamSessions.ts"
import { accountsHold, newCarbon } from "./support/carbons.ts"
import { answerOf } from "./support/http.ts"
import { eventsOf } from "./support/iamEvents.ts"
import { iamClient, IamTest } from "./support/IamTest.ts"
import { signedInCarbon } from "./support/signedIn.ts"
import { stepUp } from "./support/stepUp.ts"

const Iam = IamSessions.Default.pipe(Layer.provideMerge(IamTest({ trustProxy: true })))

const basic = (username: string, password: string) => `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`

/** POST /api/v1/silicon-auth/token with HTTP Basic, from its own address (the per-IP limit stays out of the way). */
const loginBasic = (username: string, password: string, ip = "198.51.100.1") =>
  answerOf("/api/v1/silicon-auth/token", { method: "POST", headers: { authorization: basic(username, password), "x-forwarded-for": ip } })

const loginForm = (form: Record<string, string>, headers: Record<string, string> = {}) =>
  answerOf("/api/v1/silicon-auth/token", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": "198.51.100.2", ...headers },
    body: new URLSearchParams(form).toString()
  })

/** A Silicon created in a fresh organization by its owner: its id, uuid and IAM token. */
const siliconOfOrganization = Effect.gen(function*() {
  const carbon = yield* accountsHold(newCarbon("ada"))
  const owner = yield* signedInCarbon(carbon)
  const { organization } = yield* owner.client.organizations.create({ payload: { name: "Robots" } })
  const handle = `robot${crypto.randomUUID().slice(0, 8)}`
  const created = yield* owner.client.organizationSilicons.create({
    path: { organization_id: organization.id },
    payload: { id: handle, display_name: "Robot" }
  })
  const ownerEmail = carbon.verified_emails[0]!
  return { owner, ownerEmail, organizationId: organization.id, id: `si:${handle}`, uuid: created.member.identity.uuid, token: created.token, created }
})

/** Lock expiry, rotation and removal at the service level: silicon-login-rules.test.ts. */
layer(Iam, { excludeTestServices: true })("Silicon login over HTTP", (it) => {
  it.effect("a Silicon created in an organization logs in with its IAM token, by HTTP Basic or by form", () =>
    Effect.gen(function*() {
      const { created, id, organizationId, token, uuid } = yield* siliconOfOrganization
      expect(token).toMatch(/^stk-[0-9a-f]{32}$/)
      expect(created.member).toMatchObject({ identity: { id, kind: "silicon", display_name: "Robot" }, role: "member", status: "active" })

      const byBasic = yield* loginBasic(id, token)
      expect(byBasic.status).toBe(200)
      expect(byBasic.headers.get("cache-control")).toContain("no-store")
      expect(byBasic.body).toMatchObject({ token_type: "Bearer", expires_in: 1800, access_token: expect.stringMatching(/^iat_/) })
      const robot = yield* iamClient({ authorization: `Bearer ${byBasic.body.access_token}` })
      expect((yield* robot.sessions.current()).identity).toEqual({ uuid, id, kind: "silicon" })
      expect((yield* robot.organizations.list({ urlParams: {} })).items).toEqual([
        expect.objectContaining({ role: "member", organization: expect.objectContaining({ id: organizationId }) })
      ])
      const byForm = yield* loginForm({ username: id.toUpperCase(), password: token })
      expect(byForm.status).toBe(200)
      expect(byForm.body.session_id).not.toBe(byBasic.body.session_id)

      // The events carry the Silicon, never its token.
      const events = yield* eventsOf(organizationId)
      expect(events.map((event) => event.type)).toContain("organization.silicon.created.v1")
      expect(JSON.stringify(events)).not.toContain(token)
      expect(JSON.stringify(events)).not.toContain(token.slice(4))
    }))

  it.effect("a wrong token, an unknown id and no credentials give the same answer", () =>
    Effect.gen(function*() {
      const { id, token } = yield* siliconOfOrganization
      const wrong = yield* loginBasic(id, `stk-${"0".repeat(32)}`, "198.51.100.3")
      const unknown = yield* loginBasic("si:nobody-has-this-id", token, "198.51.100.3")
      const malformed = yield* loginBasic("nobody", "not-a-token", "198.51.100.3")
      const none = yield* answerOf("/api/v1/silicon-auth/token", { method: "POST", headers: { "x-forwarded-for": "198.51.100.3" } })
      for (const answer of [wrong, unknown, malformed, none]) expect(answer.status).toBe(401)
      expect(unknown.body).toEqual(wrong.body)
      expect(malformed.body).toEqual(wrong.body)
      expect(wrong.body.error.code).toBe("invalid_credentials")
      expect(none.body.error.code).toBe("invalid_credentials")
      const both = yield* loginForm({ username: id, password: token }, { authorization: basic(id, token) })
      expect(both.status).toBe(422)
      const half = yield* loginForm({ username: id })
      expect(half.body.error).toMatchObject({ code: "validation_failed", details: { fields: { password: "is required" } } })
    }))

  it.effect("ten wrong tokens in a row lock the Silicon's login for a minute, the right token too; an unknown id locks alike", () =>
    Effect.gen(function*() {
      const { id, token } = yield* siliconOfOrganization
      const wrong = `stk-${"f".repeat(32)}`
      for (let attempt = 0; attempt < 9; attempt++) expect((yield* loginBasic(id, wrong, "198.51.100.4")).status).toBe(401)
      // A right token ends a streak short of ten.
      expect((yield* loginBasic(id, token, "198.51.100.4")).status).toBe(200)
      for (let attempt = 0; attempt < 10; attempt++) expect((yield* loginBasic(id, wrong, "198.51.100.5")).status).toBe(401)
      const locked = yield* loginBasic(id, token, "198.51.100.6")
      expect(locked.status).toBe(423)
      expect(locked.body.error).toMatchObject({
        code: "login_locked",
        details: { retry_after_seconds: expect.any(Number), locked_until: expect.any(String) }
      })
      const retryAfter = Number(locked.headers.get("retry-after"))
      expect(retryAfter).toBeGreaterThan(0)
      expect(retryAfter).toBeLessThanOrEqual(60)

      for (let attempt = 0; attempt < 10; attempt++) {
        expect((yield* loginBasic("si:made-up-robot", wrong, "198.51.100.7")).status).toBe(401)
      }
      expect((yield* loginBasic("si:made-up-robot", wrong, "198.51.100.7")).body.error.code).toBe("login_locked")
    }))

  it.effect("a Silicon no longer active cannot log in; rotation after step-up replaces the token; a removed Silicon's token stops", () =>
    Effect.gen(function*() {
      const { id, organizationId, owner, ownerEmail, token: firstToken, uuid } = yield* siliconOfOrganization
      const accounts = yield* FakeAccounts
      yield* accounts.put({ uuid, id, kind: "silicon", display_name: "Robot", status: "pending_custodian" })
      const inactive = yield* loginBasic(id, firstToken, "198.51.100.8")
      expect([inactive.status, inactive.body.error.code]).toEqual([403, "identity_not_active"])
      yield* accounts.put({ uuid, id, kind: "silicon", display_name: "Robot", status: "active" })
      expect((yield* loginBasic(id, firstToken, "198.51.100.8")).status).toBe(200)

      const rotate = { path: { organization_id: organizationId, uuid } }
      expect(yield* Effect.flip(owner.client.organizationSilicons.rotateToken(rotate))).toMatchObject({ code: "step_up_required" })
      const forRotation = yield* stepUp(owner.bearer, ownerEmail, "silicon.rotate_token", uuid)
      const rotated = yield* Effect.flatMap(
        iamClient({ authorization: `Bearer ${owner.bearer}`, "x-step-up-token": forRotation.step_up_token }),
        (client) => client.organizationSilicons.rotateToken(rotate)
      )
      expect(rotated.token).toMatch(/^stk-[0-9a-f]{32}$/)
      expect((yield* loginBasic(id, firstToken, "198.51.100.8")).status).toBe(401)
      const token = rotated.token
      const session = yield* loginBasic(id, token, "198.51.100.8")
      expect(session.status).toBe(200)

      yield* owner.client.members.remove({ path: { organization_id: organizationId, uuid } })
      expect((yield* loginBasic(id, token, "198.51.100.8")).status).toBe(401)
      const ended = yield* iamClient({ authorization: `Bearer ${session.body.access_token}` })
      expect(yield* Effect.flip(ended.sessions.current())).toMatchObject({ code: "unauthenticated" })
      expect((yield* eventsOf(organizationId)).at(-1)).toMatchObject({
        type: "organization.silicon.removed.v1",
        data: { changed: ["status"], current: { members: [{ identity: { uuid }, status: "removed" }] } }
      })
    }))
})
