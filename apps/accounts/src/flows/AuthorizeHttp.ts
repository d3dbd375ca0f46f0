import { HttpServerRequest } from "@effect/platform"
import { clientAddress, setCookie } from "@platform/http"
import { enforceRateLimit, RateLimiter } from "@platform/rate-limit"
import { Effect, Either, Layer, Option } from "effect"
import { compiledGroup, now } from "@platform/service"
import { AccountsApi } from "../api.ts"
import { AppsRepo } from "../apps/AppsRepo.ts"
import { AccountsConfig } from "../config.ts"
import { checkAuthorizeRequest, parametersFromQuery } from "./AuthorizeRequest.ts"
import { readFlowCookies } from "./flowCookies.ts"
import { flowCreationsPerIp } from "./flowLimits.ts"
import { FlowEngine } from "./FlowEngine.ts"
import { withQuery } from "./redirectUri.ts"
import { errorPage, found, refusalPage } from "./authorizePages.ts"
import { FLOW_COOKIE, type FlowCookies, type Moved } from "./FlowCore.ts"
import { FlowProviderMoves } from "./FlowProviderMoves.ts"
import { Memberships } from "./Memberships.ts"
import { flowPage } from "./pages/flowPage.ts"

export const AuthorizeLive = compiledGroup(AccountsApi, "authorize", (handlers) =>
  Effect.gen(function*() {
    const config = yield* AccountsConfig
    const apps = yield* AppsRepo
    const engine = yield* FlowEngine
    const limiter = yield* RateLimiter
    const providerMoves = yield* FlowProviderMoves
    const memberships = yield* Memberships
    const settings = { production: config.environment === "production" }
    const setCookies = (moved: Moved) =>
      Effect.forEach(moved.cookies, (c) => setCookie(settings, c.name, c.value, c.maxAge), { discard: true })
    const page = (moved: Moved) =>
      Effect.gen(function*() {
        yield* setCookies(moved)
        return flowPage(moved.flow, { now: (yield* now).getTime() })
      })

    /** A flow under way (`?flow=<id>`, where forms and a provider's callback send the browser): its page, or an error page. */
    const flowUnderWay = (id: string) =>
      Effect.gen(function*() {
        const shown = yield* Effect.either(providerMoves.get(id, yield* readFlowCookies(settings)))
        return Either.isLeft(shown) ? refusalPage(shown.left) : yield* page(shown.right)
      })

    /**
     * A returning sign-in shows no page: the browser's account already signed in to this app (an active
     * membership) continues at once, unless the app asks for a choice (login, select_account, consent).
     * A first sign-in to an app always shows the page, so nobody is signed in to a new app unseen.
     */
    const continueReturning = (started: Moved, cookies: FlowCookies) =>
      Effect.gen(function*() {
        const { flow } = started
        if (flow.signed_in_as === null || flow.prompt !== null) return started
        const membership = yield* memberships.find(flow.app.app_id, flow.signed_in_as.uuid)
        if (Option.isNone(membership) || membership.value.status !== "active") return started
        const flowCookie = started.cookies.find((c) => c.name === FLOW_COOKIE)?.value
        const continued = yield* Effect.either(engine.continueAs(flow.id, { ...cookies, flow: flowCookie }))
        return Either.isRight(continued)
          ? { flow: continued.right.flow, cookies: [...started.cookies, ...continued.right.cookies] }
          : started
      })
    /** Back to the app with an OAuth error, the state and our issuer. */
    const backToApp = (redirectUri: string, error: string, description: string, state: string | null) =>
      found(withQuery(redirectUri, [
        ["error", error],
        ["error_description", description],
        ...(state === null ? [] : [["state", state] as const]),
        ["iss", config.publicUrl]
      ]))

    return handlers.handle("authorize", () =>
      Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        const query = new URL(request.url, config.publicUrl).searchParams
        // `?flow=<id>` alone: the page of a flow under way, where a provider's callback sends the browser back.
        if ([...query.keys()].length === 1 && query.has("flow")) return yield* flowUnderWay(query.get("flow")!)
        const parameters = parametersFromQuery(query)
        const checked = yield* checkAuthorizeRequest(parameters, apps.find)
        if (checked._tag === "Page") return errorPage(checked.code, checked.message)
        if (checked._tag === "Redirect") return backToApp(checked.redirectUri, checked.error, checked.description, checked.state)
        // A flow row is made here as by POST /v1/flows, and counts against the same limit; past it the
        // app hears so on its redirect_uri (RFC 6749's temporarily_unavailable), as prompt=none expects,
        // and a person sees it on the page.
        const spent = yield* Effect.either(enforceRateLimit(limiter, flowCreationsPerIp, yield* clientAddress(config.trustProxy)))
        if (Either.isLeft(spent)) {
          return checked.request.prompt.includes("none")
            ? backToApp(checked.request.redirect_uri, "temporarily_unavailable", spent.left.message, checked.request.state)
            : refusalPage(spent.left)
        }
        const cookies = yield* readFlowCookies(settings)
        if (!checked.request.prompt.includes("none")) {
          // The page of the new flow at once (no script needed to start it); its forms post to /signin/{id}/….
          const started = yield* engine.start(checked, undefined, cookies).pipe(
            Effect.flatMap((moved) => continueReturning(moved, cookies)),
            Effect.catchAll((error) => Effect.dieMessage(`a new flow was refused: ${error.code}`))
          )
          if (started.flow.redirect_to !== null) {
            yield* setCookies(started)
            return found(started.flow.redirect_to)
          }
          return yield* page(started)
        }
        // prompt=none shows nothing: the flow is decided now and the browser goes straight back.
        // Deciding a flow just made cannot meet a concurrent change or a missing requirement (decideSilently checks them first).
        const moved = yield* engine.start(checked, parameters.values["timezone"], cookies).pipe(
          Effect.catchAll((error) => Effect.dieMessage(`a new flow decided with prompt=none was refused: ${error.code}`))
        )
        yield* setCookies(moved)
        return found(moved.flow.redirect_to!)
      }))
  })).pipe(Layer.provide([AppsRepo.Default, FlowEngine.Default, FlowProviderMoves.Default, Memberships.Default]))
