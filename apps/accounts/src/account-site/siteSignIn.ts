import { HttpServerRequest } from "@effect/platform"
import { clientAddress, setCookie } from "@platform/http"
import { enforceRateLimit, RateLimiter } from "@platform/rate-limit"
import { Effect, Either, Option } from "effect"
import { isCarbonRow } from "../accounts/AccountRow.ts"
import { AccountsRepo } from "../accounts/AccountsRepo.ts"
import { makeAccountAuthenticator } from "../auth/AccountAuth.ts"
import { FIRST_PARTY_APP_ID } from "../apps/AppId.ts"
import { AppsRepo } from "../apps/AppsRepo.ts"
import { AccountsConfig } from "../config.ts"
import { flowPageUrl, refusalPage, seeOther } from "../flows/authorizePages.ts"
import { siteSigninRequest } from "../flows/AuthorizeRequest.ts"
import { readFlowCookies } from "../flows/flowCookies.ts"
import { flowCreationsPerIp } from "../flows/flowLimits.ts"
import { FlowEngine } from "../flows/FlowEngine.ts"
import { errorPage } from "../site/layout.ts"

export const ACCOUNT_PAGE = "/account"
export const SIGNED_IN_PATH = "/account/signed-in"

/** A page of this site to go back to: a path of our own origin (never `//host` or a scheme), else the account page. */
export const sitePath = (next: string | undefined): string =>
  next !== undefined && /^\/(?![/\\])/.test(next) && !/[\u0000-\u001f\u007f]/.test(next) ? next : ACCOUNT_PAGE

export const signInPath = (next: string) => `/account/sign-in?next=${encodeURIComponent(sitePath(next))}`

/**
 * How the site signs a person in: the hosted flow of the first-party app (spec 1: the account site uses
 * the same hosted flow), whose verified code or provider answer sets the sa_session cookie. The flow
 * ends at /account/signed-in, which goes on to the page the person asked for.
 */
export const makeSiteSignIn = Effect.gen(function*() {
  const config = yield* AccountsConfig
  const apps = yield* AppsRepo
  const engine = yield* FlowEngine
  const limiter = yield* RateLimiter
  const accounts = yield* AccountsRepo
  const authenticate = yield* makeAccountAuthenticator
  const settings = { production: config.environment === "production" }

  /** The signed-in Carbon of this browser, with its sign-in, or none (no cookie, or a session that ended). */
  const signedInCarbon = Effect.gen(function*() {
    const authenticated = yield* Effect.either(authenticate)
    if (Either.isLeft(authenticated)) return Option.none()
    const account = yield* accounts.findByUuid(authenticated.right.uuid)
    return Option.isSome(account) && isCarbonRow(account.value) && account.value.status === "active"
      ? Option.some({ carbon: account.value, signinId: authenticated.right.signinId })
      : Option.none()
  })

  /** A new flow of the first-party app, its page at once (303), counted like every flow creation. */
  const start = (next: string) =>
    Effect.gen(function*() {
      const spent = yield* Effect.either(enforceRateLimit(limiter, flowCreationsPerIp, yield* clientAddress(config.trustProxy)))
      if (Either.isLeft(spent)) return refusalPage(spent.left)
      const app = yield* apps.find(FIRST_PARTY_APP_ID)
      if (Option.isNone(app)) return yield* Effect.dieMessage("the first-party app is missing")
      const back = `${config.publicUrl}${SIGNED_IN_PATH}?next=${encodeURIComponent(sitePath(next))}`
      const started = yield* engine.start(siteSigninRequest(app.value, back), undefined, yield* readFlowCookies(settings)).pipe(
        Effect.catchAll((error) => Effect.dieMessage(`the site's sign-in flow was refused: ${error.code}`))
      )
      yield* Effect.forEach(started.cookies, (c) => setCookie(settings, c.name, c.value, c.maxAge), { discard: true })
      return seeOther(flowPageUrl(started.flow.id))
    })

  /** The end of the site's flow: on to the page asked for; the flow's code is left unused (it expires in 120 seconds). */
  const finish = Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const query = new URL(request.url, config.publicUrl).searchParams
    if (query.has("error")) {
      return errorPage(
        400,
        query.get("error") ?? "access_denied",
        "Signing in was cancelled.",
        "Open the account site again to sign in."
      )
    }
    return seeOther(sitePath(query.get("next") ?? undefined))
  })

  return { signedInCarbon, start, finish } as const
})
