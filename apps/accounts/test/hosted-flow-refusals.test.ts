import { expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { sha256Hex } from "@platform/crypto"
import { Effect } from "effect"
import { AccountsTest } from "./support/AccountsUnderTest.ts"
import { createCarbon, insertSilicon } from "./support/carbons.ts"
import {
  authorizeQuery,
  browser,
  expectSilentFailure,
  makeFlowApp,
  proveEmail,
  run,
  setSigninConfig,
  startFlow,
  verifyCode
} from "./support/flows.ts"

/** Spec 1's hosted-flow refusals that no other test reaches, each set up over real HTTP as a browser would meet it. */
layer(AccountsTest(), { excludeTestServices: true })("hosted flow refusals", (it) => {
  it.effect("a details page whose required field has no value: continue is 409 requirements_missing naming it", () =>
    Effect.gen(function*() {
      const appId = yield* makeFlowApp()
      yield* setSigninConfig(appId, ["required_fields"], ["phone"])
      yield* createCarbon({ email: "no.phone@example.com" })
      const b = yield* browser
      const flow = yield* proveEmail(b, appId, "no.phone@example.com")
      expect(flow).toMatchObject({ step: "details", details: { id: "required", fields: [{ field: "phone", mode: "required", missing: true }] } })
      const refused = yield* run(() => b.post(`/v1/flows/${flow.id}/details/continue`, { shared: [] }))
      expect(refused.status).toBe(409)
      expect(refused.body.error).toMatchObject({ code: "requirements_missing", details: { missing: ["phone"] } })
      expect((yield* run(() => b.get(`/v1/flows/${flow.id}`))).body.flow.step).toBe("details")
    }))

  it.effect("prompt=none with a session: details not granted yet end in consent_required, on the redirect and in POST /v1/flows", () =>
    Effect.gen(function*() {
      const appId = yield* makeFlowApp()
      yield* createCarbon({ email: "silent.consent@example.com" })
      const b = yield* browser
      // The first sign-in asks scope openid only: no page, the membership grants no detail.
      expect((yield* proveEmail(b, appId, "silent.consent@example.com")).step).toBe("complete")
      // authorizeQuery asks email and dob, which this membership never granted.
      yield* expectSilentFailure(b, appId, "consent_required")
    }))

  it.effect("prompt=none with a session: an app that does not remember the browser, or a required detail missing, is interaction_required", () =>
    Effect.gen(function*() {
      yield* createCarbon({ email: "silent.interaction@example.com" })
      const b = yield* browser
      const forgetful = yield* makeFlowApp()
      expect((yield* proveEmail(b, forgetful, "silent.interaction@example.com")).step).toBe("complete")
      yield* setSigninConfig(forgetful, ["remember_browser"], false)
      yield* expectSilentFailure(b, forgetful, "interaction_required", { scope: "openid" })

      const needsPhone = yield* makeFlowApp()
      yield* setSigninConfig(needsPhone, ["required_fields"], ["phone"])
      yield* expectSilentFailure(b, needsPhone, "interaction_required", { scope: "openid" })
    }))

  it.effect("continue on an app that does not remember the browser is 403 continue_not_allowed", () =>
    Effect.gen(function*() {
      const appId = yield* makeFlowApp()
      const carbon = yield* createCarbon({ email: "no.continue@example.com" })
      const b = yield* browser
      expect((yield* proveEmail(b, appId, "no.continue@example.com")).step).toBe("complete")
      yield* setSigninConfig(appId, ["remember_browser"], false)
      const flow = (yield* startFlow(b, appId)).body.flow
      expect(flow).toMatchObject({ step: "choose_method", signed_in_as: { uuid: carbon.uuid } })
      const refused = yield* run(() => b.post(`/v1/flows/${flow.id}/continue`))
      expect(refused.status).toBe(403)
      expect(refused.body.error.code).toBe("continue_not_allowed")
      expect((yield* run(() => b.get(`/v1/flows/${flow.id}`))).body.flow.step).toBe("choose_method")
    }))

  it.effect("continue when the browser's sign-in stands for a Silicon is 403 carbon_only", () =>
    Effect.gen(function*() {
      const appId = yield* makeFlowApp()
      yield* createCarbon({ email: "became.silicon@example.com" })
      const b = yield* browser
      expect((yield* proveEmail(b, appId, "became.silicon@example.com")).step).toBe("complete")
      const flow = (yield* startFlow(b, appId)).body.flow
      // A flow only offers a Carbon's session, so the Silicon is put behind this browser's sign-in and flow directly.
      const silicon = yield* insertSilicon
      const sql = yield* SqlClient.SqlClient
      yield* sql`UPDATE signins SET account_uuid = ${silicon} WHERE session_cookie_hash = ${sha256Hex(b.cookies.get("sa_session")!)}`
        .pipe(Effect.orDie)
      yield* sql`
        UPDATE flows SET state = jsonb_set(state, '{session_account_uuid}', to_jsonb(${silicon}::text)) WHERE id = ${flow.id}
      `.pipe(Effect.orDie)
      const refused = yield* run(() => b.post(`/v1/flows/${flow.id}/continue`))
      expect(refused.status).toBe(403)
      expect(refused.body.error.code).toBe("carbon_only")
    }))

  it.effect("a proven address no account holds, on an app that takes no sign-ups, is 403 signup_not_allowed", () =>
    Effect.gen(function*() {
      const appId = yield* makeFlowApp()
      yield* setSigninConfig(appId, ["allow_signup"], false)
      const b = yield* browser
      const flow = (yield* startFlow(b, appId)).body.flow
      const sent = yield* run(() => b.post(`/v1/flows/${flow.id}/code`, { channel: "email", destination: "nobody.yet@example.com" }))
      expect(sent.status).toBe(200)
      const refused = yield* verifyCode(b, flow.id, "nobody.yet@example.com")
      expect(refused.status).toBe(403)
      expect(refused.body.error.code).toBe("signup_not_allowed")
      expect(b.cookies.has("sa_signup")).toBe(false)
    }))

  it.effect("continue after this browser signed in as another account meanwhile is 409 account_changed", () =>
    Effect.gen(function*() {
      const appId = yield* makeFlowApp()
      const first = yield* createCarbon({ email: "first.person@example.com" })
      yield* createCarbon({ email: "second.person@example.com" })
      const b = yield* browser
      expect((yield* proveEmail(b, appId, "first.person@example.com")).step).toBe("complete")
      const offered = (yield* startFlow(b, appId)).body.flow
      expect(offered).toMatchObject({ step: "choose_method", signed_in_as: { uuid: first.uuid } })
      const offeredCookie = b.cookies.get("sa_flow")!
      // Another tab of the same browser signs in as someone else: the offer of the first tab is stale. A
      // browser holds one sa_flow cookie, so the first tab's is put back, as for a tab that kept it.
      expect((yield* proveEmail(b, appId, "second.person@example.com")).step).toBe("complete")
      b.cookies.set("sa_flow", offeredCookie)
      const refused = yield* run(() => b.post(`/v1/flows/${offered.id}/continue`))
      expect([refused.status, refused.body.error.code]).toEqual([409, "account_changed"])
      expect((yield* run(() => b.get(`/v1/flows/${offered.id}`))).body.flow.step).toBe("choose_method")
    }))

  it.effect("a proven address whose account cannot sign in is 409 account_unavailable, and nothing signs in", () =>
    Effect.gen(function*() {
      const appId = yield* makeFlowApp()
      const carbon = yield* createCarbon({ email: "cannot.sign.in@example.com" })
      const b = yield* browser
      const flow = (yield* startFlow(b, appId)).body.flow
      const sent = yield* run(() => b.post(`/v1/flows/${flow.id}/code`, { channel: "email", destination: "cannot.sign.in@example.com" }))
      expect(sent.status).toBe(200)
      // The account stops being live between the code and its check while the address stays verified on it
      // (a guard: deleting an account gives its addresses up).
      const sql = yield* SqlClient.SqlClient
      yield* sql`UPDATE accounts SET status = 'deleted' WHERE uuid = ${carbon.uuid}`.pipe(Effect.orDie)
      const refused = yield* verifyCode(b, flow.id, "cannot.sign.in@example.com")
      expect([refused.status, refused.body.error.code]).toEqual([409, "account_unavailable"])
      expect(b.cookies.has("sa_session")).toBe(false)
      expect(b.cookies.has("sa_signup")).toBe(false)
    }))

  it.effect("every move of a failed flow is 409 flow_failed; GET still answers it", () =>
    Effect.gen(function*() {
      const appId = yield* makeFlowApp()
      const b = yield* browser
      // prompt=none without a session fails at once.
      const created = yield* run(() => b.post("/v1/flows", Object.fromEntries(authorizeQuery(appId, { prompt: "none" }))))
      expect(created.body.flow).toMatchObject({ step: "failed", error: { code: "login_required" } })
      const at = (move: string) => `/v1/flows/${created.body.flow.id}${move}`
      for (const [move, body] of [["/cancel", {}], ["/code", { channel: "email", destination: "late@example.com" }]] as const) {
        const refused = yield* run(() => b.post(at(move), body))
        expect([refused.status, refused.body.error.code]).toEqual([409, "flow_failed"])
      }
      expect((yield* run(() => b.get(at("")))).body.flow.step).toBe("failed")
    }))

  it.effect("checking a detail code before one was sent for that field is 409 no_code_sent", () =>
    Effect.gen(function*() {
      const appId = yield* makeFlowApp()
      yield* setSigninConfig(appId, ["required_fields"], ["phone"])
      yield* createCarbon({ email: "no.code.yet@example.com" })
      const b = yield* browser
      const flow = yield* proveEmail(b, appId, "no.code.yet@example.com")
      expect(flow).toMatchObject({ step: "details", details: { fields: [{ field: "phone", missing: true }] } })
      const refused = yield* run(() => b.post(`/v1/flows/${flow.id}/details/verify`, { field: "phone", code: "123456" }))
      expect([refused.status, refused.body.error.code]).toEqual([409, "no_code_sent"])
    }))
})
