import { expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { AccountsTest, AccountsUnderTest } from "./support/AccountsUnderTest.ts"
import { authorizeQuery, browser, CHALLENGE, codeFor, expectSilentFailure, LOOPBACK, makeFlowApp, REDIRECT, run } from "./support/flows.ts"

layer(AccountsTest(), { excludeTestServices: true })("hosted sign-in flow", (it) => {
  it.effect("sign-up of a new Carbon by email code, details and review pages, then a code on redirect_to", () =>
    Effect.gen(function*() {
      const appId = yield* makeFlowApp({ scopeFields: ["email"], terms: true })
      const { url } = yield* AccountsUnderTest
      const b = yield* browser
      const query = authorizeQuery(appId, { login_hint: "someone@example.com" })
      const page = yield* run(() => b.get(`/authorize?${query}`))
      expect(page.status).toBe(200)
      expect(page.headers.get("content-type")).toMatch(/^text\/html/)
      expect(page.headers.get("content-security-policy")).toMatch(/script-src 'self'/)
      expect(page.body).not.toContain("someone@example.com")

      const created = yield* run(() => b.post("/v1/flows", { ...Object.fromEntries(query), timezone: "Europe/Paris", extra: "x" }))
      expect(created.status).toBe(201)
      expect(created.headers.get("cache-control")).toBe("no-store")
      expect(b.lastSetCookies.find((c) => c.startsWith("sa_flow=saf_"))).toMatch(/Max-Age=3600.*Path=\/.*HttpOnly.*SameSite=Lax/)
      const flow = created.body.flow
      expect(flow).toMatchObject({
        step: "choose_method",
        app: { app_id: appId, name: "Flow App", first_party: false },
        methods: ["email"],
        signed_in_as: null,
        challenge: null,
        redirect_to: null,
        error: null,
        prompt: null,
        intent: "signin",
        method_hint: null
      })
      expect(JSON.stringify(flow)).not.toContain("someone@example.com")
      const at = (path: string) => `/v1/flows/${flow.id}${path}`

      const sent = yield* run(() => b.post(at("/code"), { channel: "email", destination: "New.Person@Example.com" }))
      expect(sent.status).toBe(200)
      expect(sent.body.flow).toMatchObject({ step: "verify_code", challenge: { channel: "email", destination: "n***@example.com" } })
      const code = yield* codeFor("new.person@example.com")
      const verified = yield* run(() => b.post(at("/code/verify"), { code }))
      expect(verified.status).toBe(200)
      expect(verified.body.flow).toMatchObject({ step: "signup", signup: { email: "n***@example.com", timezone: "Europe/Paris" } })
      expect(b.cookies.has("sa_signup")).toBe(true)

      const signedUp = yield* run(() => b.post(at("/signup"), { display_name: "New Person", dob: "1990-04-01" }))
      expect(signedUp.status).toBe(200)
      expect(b.cookies.has("sa_session")).toBe(true)
      expect(b.cookies.has("sa_signup")).toBe(false)
      const details = signedUp.body.flow
      expect(details.signed_in_as).toMatchObject({ kind: "carbon", display_name: "New Person" })
      expect(details.details).toMatchObject({
        index: 0,
        count: 2,
        id: "required",
        fields: [{ field: "email", mode: "required", value: "n***@example.com", missing: false, shared: true, previously_granted: false }],
        review_next: false
      })
      const stray = yield* run(() => b.post(at("/details/continue"), { shared: ["phone"] }))
      expect(stray.status).toBe(409)
      expect(stray.body.error.code).toBe("detail_not_on_page")
      const back = yield* run(() => b.post(at("/details/back")))
      expect(back.body.error.code).toBe("no_previous_page")
      const optional = yield* run(() => b.post(at("/details/continue"), { shared: [] }))
      expect(optional.body.flow.details).toMatchObject({
        index: 1,
        id: "optional",
        fields: [{ field: "dob", mode: "optional", value: "1990-04-01", shared: false }],
        review_next: true
      })
      const review = yield* run(() => b.post(at("/details/continue"), { shared: ["dob"] }))
      expect(review.body.flow.step).toBe("review")
      expect(review.body.flow.review.fields.map((f: { field: string; shared: boolean }) => [f.field, f.shared])).toEqual([
        ["email", true],
        ["dob", true]
      ])
      const wrongStep = yield* run(() => b.post(at("/code/resend")))
      expect(wrongStep.status).toBe(409)
      expect(wrongStep.body.error.code).toBe("invalid_step")

      const done = yield* run(() => b.post(at("/review")))
      expect(done.status).toBe(200)
      const redirectTo = new URL(done.body.flow.redirect_to)
      expect(done.body.flow.redirect_to.startsWith(`${REDIRECT}?code=sac_`)).toBe(true)
      expect(redirectTo.searchParams.get("state")).toBe("st&te=/ü")
      expect(redirectTo.searchParams.get("iss")).toBe(url)
      const sql = yield* SqlClient.SqlClient
      const [row] = yield* sql<{ scope: string; redirect_uri: string; code_challenge: string; code_challenge_method: string; nonce: string }>`
        SELECT scope, redirect_uri, code_challenge, code_challenge_method, nonce FROM authorization_codes WHERE app_id = ${appId}
      `.pipe(Effect.orDie)
      expect(row).toEqual({
        scope: "openid profile email dob",
        redirect_uri: REDIRECT,
        code_challenge: CHALLENGE,
        code_challenge_method: "S256",
        nonce: "n-1"
      })
      const [membership] = yield* sql<{ status: string; scopes: Array<string> }>`
        SELECT status, scopes FROM memberships WHERE app_id = ${appId}
      `.pipe(Effect.orDie)
      expect(membership).toEqual({ status: "active", scopes: ["profile", "email", "dob"] })

      // A finished flow keeps answering GET with its redirect_to; moves are refused.
      const again = yield* run(() => b.get(at("")))
      expect(again.body.flow).toMatchObject({ step: "complete", redirect_to: done.body.flow.redirect_to })
      const late = yield* run(() => b.post(at("/cancel")))
      expect(late.body.error.code).toBe("flow_completed")

      // The second sign-in to the same app skips the pages: continue as the browser's account.
      const second = yield* run(() => b.post("/v1/flows", Object.fromEntries(authorizeQuery(appId))))
      expect(second.body.flow.signed_in_as).toMatchObject({ display_name: "New Person" })
      const continued = yield* run(() => b.post(`/v1/flows/${second.body.flow.id}/continue`))
      expect(continued.status).toBe(200)
      expect(continued.body.flow.step).toBe("complete")
      expect(continued.body.flow.redirect_to).toMatch(/^https:\/\/app\.example\/cb\?code=sac_/)

      // prompt=none now finishes silently, straight from GET /authorize.
      const silent = yield* run(() => b.get(`/authorize?${authorizeQuery(appId, { prompt: "none" })}`))
      expect(silent.status).toBe(302)
      expect(silent.headers.get("location")).toMatch(/^https:\/\/app\.example\/cb\?code=sac_/)

      // prompt=login refuses the browser's session.
      const login = yield* run(() => b.post("/v1/flows", Object.fromEntries(authorizeQuery(appId, { prompt: "login" }))))
      const refused = yield* run(() => b.post(`/v1/flows/${login.body.flow.id}/continue`))
      expect(refused.status).toBe(403)
      expect(refused.body.error.code).toBe("reauthentication_required")
    }))

  it.effect("every redirect_uri difference gets the error page; only a loopback port may vary", () =>
    Effect.gen(function*() {
      const appId = yield* makeFlowApp()
      const b = yield* browser
      const refused = [
        "https://app.example/cc",
        "https://app.example/cb/",
        "https://APP.example/cb",
        "https://app.example:443/cb",
        "https://app.example/x/../cb",
        "https://app.example/cb?extra=1",
        "https://app.example/cb#fragment",
        "http://localhost.evil.test/cb?x=1",
        "http://127.000.000.001:5000/cb",
        "https://user@app.example/cb",
        "http://user@127.0.0.1:5000/cb",
        "http://127.0.0.1:6000/other",
        "http://127.0.0.1:6000/cb?x=1",
        "http://localhost:8080/cb?x=2",
        "http://localhost:8080/cb"
      ]
      for (const redirectUri of refused) {
        const answer = yield* run(() => b.get(`/authorize?${authorizeQuery(appId, { redirect_uri: redirectUri })}`))
        expect(answer.status, redirectUri).toBe(400)
        expect(answer.headers.get("location"), redirectUri).toBeNull()
        expect(answer.body, redirectUri).toContain("redirect_uri_not_registered")
      }
      for (const redirectUri of [` ${REDIRECT} `, LOOPBACK, "http://127.0.0.1:6000/cb", "http://127.0.0.1/cb", "http://localhost:8080/cb?x=1"]) {
        const answer = yield* run(() => b.get(`/authorize?${authorizeQuery(appId, { redirect_uri: redirectUri })}`))
        expect(answer.status, redirectUri).toBe(200)
      }
    }))

  it.effect("unknown app, disagreeing client_id: error page without Location; other refusals go back to the app", () =>
    Effect.gen(function*() {
      const appId = yield* makeFlowApp()
      const { url } = yield* AccountsUnderTest
      const b = yield* browser
      const unknown = yield* run(() => b.get(`/authorize?${authorizeQuery("no-such-app")}`))
      expect(unknown.status).toBe(400)
      expect(unknown.headers.get("location")).toBeNull()
      expect(unknown.body).toContain("unknown_app")
      const disagreeing = yield* run(() => b.get(`/authorize?${authorizeQuery(appId, { client_id: "other" })}`))
      expect(disagreeing.status).toBe(400)
      expect(disagreeing.headers.get("location")).toBeNull()
      const alias = yield* run(() => b.get(`/authorize?${authorizeQuery(appId, { client_id: appId })}`))
      expect(alias.status).toBe(200)
      const refusals: ReadonlyArray<readonly [Record<string, string>, string]> = [
        [{ scope: "openid bogus" }, "invalid_scope"],
        [{ response_type: "token" }, "unsupported_response_type"],
        [{ code_challenge_method: "S512" }, "invalid_request"],
        [{ prompt: "none login" }, "invalid_request"],
        [{ method: "phone" }, "invalid_request"],
        [{ max_age: "soon" }, "invalid_request"]
      ]
      for (const [extra, error] of refusals) {
        const answer = yield* run(() => b.get(`/authorize?${authorizeQuery(appId, extra)}`))
        expect(answer.status, error).toBe(302)
        const location = new URL(answer.headers.get("location")!)
        expect(`${location.origin}${location.pathname}`).toBe(REDIRECT)
        expect(location.searchParams.get("error")).toBe(error)
        expect(location.searchParams.get("error_description")).toBeTruthy()
        expect(location.searchParams.get("state")).toBe("st&te=/ü")
        expect(location.searchParams.get("iss")).toBe(url)
      }
    }))

  it.effect("prompt=none without a session redirects with login_required; POST /v1/flows answers it as a failed flow", () =>
    Effect.gen(function*() {
      const appId = yield* makeFlowApp()
      const b = yield* browser
      yield* expectSilentFailure(b, appId, "login_required")
    }))

  it.effect("a flow POST needs our Origin and the flow's own cookie; cancel ends it with access_denied", () =>
    Effect.gen(function*() {
      const appId = yield* makeFlowApp()
      const { url } = yield* AccountsUnderTest
      const first = yield* browser
      const second = yield* browser
      const mine = yield* run(() => first.post("/v1/flows", Object.fromEntries(authorizeQuery(appId))))
      const theirs = yield* run(() => second.post("/v1/flows", Object.fromEntries(authorizeQuery(appId))))
      const noOrigin = yield* run(() =>
        fetch(`${url}/v1/flows/${mine.body.flow.id}/cancel`, {
          method: "POST",
          headers: { "content-type": "application/json", cookie: `sa_flow=${first.cookies.get("sa_flow")}` },
          body: "{}"
        }).then(async (r) => ({ status: r.status, body: (await r.json()) as { error: { code: string } } }))
      )
      expect(noOrigin.status).toBe(403)
      expect(noOrigin.body.error.code).toBe("origin_not_allowed")
      const foreign = yield* run(() => first.post(`/v1/flows/${mine.body.flow.id}/cancel`, {}, { origin: "https://evil.example" }))
      expect(foreign.status).toBe(403)
      const createNoOrigin = yield* run(() =>
        fetch(`${url}/v1/flows`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ app_id: appId }) })
      )
      expect(createNoOrigin.status).toBe(403)
      const crossed = yield* run(() => first.get(`/v1/flows/${theirs.body.flow.id}`))
      expect(crossed.status).toBe(403)
      expect(crossed.body.error.code).toBe("flow_not_bound")
      const missing = yield* run(() => first.get("/v1/flows/flw_nothing"))
      expect(missing.status).toBe(404)
      expect(missing.body.error.code).toBe("flow_not_found")
      const noSession = yield* run(() => first.post(`/v1/flows/${mine.body.flow.id}/continue`))
      expect(noSession.status).toBe(401)
      expect(noSession.body.error.code).toBe("session_required")
      const cancelled = yield* run(() => first.post(`/v1/flows/${mine.body.flow.id}/cancel`))
      expect(cancelled.body.flow).toMatchObject({ step: "complete", error: { code: "access_denied" } })
      expect(new URL(cancelled.body.flow.redirect_to).searchParams.get("error")).toBe("access_denied")
    }))
})
