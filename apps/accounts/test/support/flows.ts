import { expect } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { sha256Hex } from "@platform/crypto"
import { Effect, Option } from "effect"
import { AccountsRepo } from "../../src/accounts/AccountsRepo.ts"
import { AppsRepo } from "../../src/apps/AppsRepo.ts"
import { createFakeApp } from "../../src/apps/FakeApps.ts"
import { AccountsUnderTest } from "./AccountsUnderTest.ts"
import { Browser } from "./browser.ts"
import { fetchAnswer } from "./http.ts"
import { lastMessageTo } from "@platform/testkit"

/** What the hosted-flow tests share: an app to sign in to, its authorize query, a browser and the codes it receives. */

export const REDIRECT = "https://app.example/cb"
export const LOOPBACK = "http://127.0.0.1:5000/cb"
export const LOCALHOST = "http://localhost/cb?x=1"
export const CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"

let counter = 0

/** Sets one value of an app's stored signin_config, e.g. `["copy", "terms_url"]`, before its flows start. */
export const setSigninConfig = (appId: string, path: ReadonlyArray<string>, value: unknown) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql`
      UPDATE apps SET signin_config = jsonb_set(signin_config, ${`{${path.join(",")}}`}::text[], ${JSON.stringify(value)}::jsonb)
      WHERE app_id = ${appId}
    `).pipe(Effect.orDie, Effect.asVoid)

interface FlowAppOptions {
  readonly scopeFields?: ReadonlyArray<string>
  readonly terms?: boolean
}

/** A fake app taking REDIRECT and two loopback URIs, with its secret; with `terms`, its review page is on. */
export const makeFlowAppWithSecret = (options: FlowAppOptions = {}) =>
  Effect.gen(function*() {
    const appId = `flowapp${counter++}`
    const { secret } = yield* createFakeApp({
      appId,
      name: "Flow App",
      redirectUris: [REDIRECT, LOOPBACK, LOCALHOST],
      owner: Option.none(),
      scopeFields: options.scopeFields ?? []
    }).pipe(Effect.orDie)
    if (options.terms === true) yield* setSigninConfig(appId, ["copy", "terms_url"], "https://app.example/terms")
    return { appId, secret }
  }).pipe(Effect.provide([AccountsRepo.Default, AppsRepo.Default]))

/** A fake app taking REDIRECT and two loopback URIs; with `terms`, its review page is on. */
export const makeFlowApp = (options: FlowAppOptions = {}) => Effect.map(makeFlowAppWithSecret(options), ({ appId }) => appId)

export const authorizeQuery = (appId: string, extra: Record<string, string> = {}) =>
  new URLSearchParams({
    app_id: appId,
    redirect_uri: REDIRECT,
    state: "st&te=/ü",
    code_challenge: CHALLENGE,
    scope: "openid email dob",
    nonce: "n-1",
    ...extra
  })

export const browser = Effect.map(AccountsUnderTest, ({ url }) => new Browser(url))
export const run = <A>(promise: () => Promise<A>) => Effect.promise(promise)

export const codeFor = (to: string) => Effect.map(lastMessageTo(to), (message) => message.code!)

/** A flow asking no detail (scope openid), so a verified code for a known account completes it at once. */
export const startFlow = (b: Browser, appId: string, headers: Record<string, string> = {}) =>
  run(() => b.post("/v1/flows", Object.fromEntries(authorizeQuery(appId, { scope: "openid" })), headers))

/**
 * prompt=none that cannot finish silently, asked both ways: GET /authorize redirects to the app with
 * `error` (and the state), and POST /v1/flows answers 201 with a failed flow whose redirect_to carries it.
 */
export const expectSilentFailure = (b: Browser, appId: string, error: string, extra: Record<string, string> = {}) =>
  Effect.gen(function*() {
    const query = authorizeQuery(appId, { prompt: "none", ...extra })
    const answer = yield* run(() => b.get(`/authorize?${query}`))
    expect(answer.status).toBe(302)
    const location = new URL(answer.headers.get("location")!)
    expect(location.searchParams.get("error")).toBe(error)
    expect(location.searchParams.get("state")).toBe("st&te=/ü")
    const created = yield* run(() => b.post("/v1/flows", Object.fromEntries(query)))
    expect(created.status).toBe(201)
    expect(created.body.flow).toMatchObject({ step: "failed", error: { code: error }, prompt: "none" })
    expect(created.body.flow.redirect_to).toMatch(new RegExp(`error=${error}`))
  })

/** Verifies the code last sent to `to` in flow `flowId`. */
export const verifyCode = (b: Browser, flowId: string, to: string) =>
  Effect.flatMap(codeFor(to), (code) => run(() => b.post(`/v1/flows/${flowId}/code/verify`, { code })))

/**
 * A new flow of `appId` in which the browser proves `email` by its code: answers the flow after
 * the code, complete for a known account (signed in) or at signup for a new address.
 */
export const proveEmail = (b: Browser, appId: string, email: string) =>
  Effect.gen(function*() {
    const flowId: string = (yield* startFlow(b, appId)).body.flow.id
    const sent = yield* run(() => b.post(`/v1/flows/${flowId}/code`, { channel: "email", destination: email }))
    if (sent.status !== 200) return yield* Effect.dieMessage(`no code was sent to ${email}: ${sent.status}`)
    const verified = yield* verifyCode(b, flowId, email)
    if (verified.status !== 200) return yield* Effect.dieMessage(`the code to ${email} was refused: ${verified.status}`)
    return verified.body.flow
  })

/** The account an authorization code on a redirect_to was minted for. */
export const accountOfCode = (redirectTo: string) =>
  Effect.gen(function*() {
    const code = new URL(redirectTo).searchParams.get("code")!
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ account_uuid: string }>`
      SELECT account_uuid FROM authorization_codes WHERE code_hash = ${sha256Hex(code)}
    `.pipe(Effect.orDie)
    return rows[0]?.account_uuid
  })

/** RFC 7636's example verifier, whose S256 challenge (CHALLENGE) the flows send. */
export const VERIFIER = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"

const appBasic = (appId: string, secret: string) => `Basic ${Buffer.from(`${appId}:${secret}`).toString("base64")}`

/** The app redeems the authorization code on a flow's redirect_to at the token endpoint. */
export const redeemCode = (origin: string, appId: string, secret: string, redirectTo: string) =>
  run(() =>
    fetchAnswer(`${origin}/v1/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: appBasic(appId, secret) },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code: new URL(redirectTo).searchParams.get("code")!,
        redirect_uri: REDIRECT,
        code_verifier: VERIFIER
      }).toString()
    })
  )

/** The app patches its own signin_config through the API (write-only secrets included). */
export const patchSigninConfig = (origin: string, appId: string, secret: string, patch: unknown) =>
  run(() =>
    fetchAnswer(`${origin}/v1/apps/${appId}/signin-config`, {
      method: "PATCH",
      headers: { "content-type": "application/json", authorization: appBasic(appId, secret) },
      body: JSON.stringify(patch)
    })
  )
