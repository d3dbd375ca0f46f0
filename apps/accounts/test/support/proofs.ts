import { Effect } from "effect"
import { AccountsUnderTest } from "./AccountsUnderTest.ts"
import { createApp, mintCode, REDIRECT_URI } from "./apps.ts"
import { createCarbon } from "./carbons.ts"
import { type Answer, fetchAnswer } from "./http.ts"

export interface TestApp {
  readonly appId: string
  readonly secret: string
}

export const basicOf = (app: TestApp) => `Basic ${Buffer.from(`${app.appId}:${app.secret}`).toString("base64")}`

/** A request to the server under test. */
export const call = (path: string, init: RequestInit = {}): Effect.Effect<Answer, never, AccountsUnderTest> =>
  Effect.flatMap(AccountsUnderTest, ({ url }) => Effect.promise(() => fetchAnswer(`${url}${path}`, init)))

/** A JSON request with the given Authorization (and more headers). */
export const jsonCall = (
  method: string,
  path: string,
  authorization: string,
  body?: unknown,
  headers: Record<string, string> = {}
) =>
  call(path, {
    method,
    headers: { authorization, ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })

/** An OAuth form request to the token endpoint, authenticated as the app. */
export const tokenRequest = (app: TestApp, parameters: Record<string, string>) =>
  call("/v1/oauth/token", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", authorization: basicOf(app) },
    body: new URLSearchParams(parameters).toString()
  })

/** An app's sign-in of the account through an authorization code: the app's Token response. */
export const appSignIn = (app: TestApp, accountUuid: string) =>
  Effect.gen(function*() {
    const code = yield* mintCode({ appId: app.appId, accountUuid })
    const answer = yield* tokenRequest(app, { grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI })
    if (answer.status !== 200) return yield* Effect.dieMessage(`app sign-in failed: ${JSON.stringify(answer.body)}`)
    return answer.body as { access_token: string; refresh_token: string; membership_id: string }
  })

/** An issuing app, a receiving app, a Carbon signed in to the issuing app, and a User verification proof. */
export const issued = (options: { readonly ttl?: number } = {}) =>
  Effect.gen(function*() {
    const issuer = yield* createApp()
    const receiver = yield* createApp()
    const carbon = yield* createCarbon()
    const tokens = yield* appSignIn(issuer, carbon.uuid)
    const proof = yield* jsonCall("POST", "/v1/proofs/user-verification", basicOf(issuer), {
      subject_token: tokens.access_token,
      receiving_app: receiver.appId,
      scopes: ["read:files", "read:files"],
      ...(options.ttl === undefined ? {} : { access_ttl_seconds: options.ttl })
    })
    return { issuer, receiver, carbon, tokens, proof }
  })

export { createApp }
