import { Effect } from "effect"
import { AccountsUnderTest } from "./AccountsUnderTest.ts"
import { mintCode, REDIRECT_URI } from "./apps.ts"
import { appBasic } from "./events.ts"
import { fetchAnswer } from "./http.ts"

type App = { readonly appId: string; readonly secret: string }

/** A POST to the token endpoint with the app's Basic credentials; the answer. */
export const tokenRequest = (app: App, form: Record<string, string>) =>
  Effect.flatMap(AccountsUnderTest, ({ url }) =>
    Effect.promise(() =>
      fetchAnswer(`${url}/v1/oauth/token`, {
        method: "POST",
        headers: { ...appBasic(app), "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(form).toString()
      })
    ))

/** The account signs in to the app as the hosted flow ends (a code, redeemed over HTTP): the app's tokens. */
export const appTokens = (app: App, accountUuid: string, scope = "openid profile") =>
  Effect.gen(function*() {
    const code = yield* mintCode({ appId: app.appId, accountUuid, scope })
    const answer = yield* tokenRequest(app, { grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI })
    if (answer.status !== 200) return yield* Effect.dieMessage(`token exchange answered ${answer.status}`)
    return { accessToken: answer.body.access_token as string, refreshToken: answer.body.refresh_token as string }
  })

/** The app's refresh of a refresh token: the answer. */
export const refreshAt = (app: App, refreshToken: string) =>
  tokenRequest(app, { grant_type: "refresh_token", refresh_token: refreshToken })
