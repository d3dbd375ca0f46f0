import { HttpApiBuilder, HttpServerRequest } from "@effect/platform"
import { clientAddress, setCookie } from "@platform/http"
import { enforceRateLimit, RateLimiter } from "@platform/rate-limit"
import { Effect, Either, Layer } from "effect"
import { AccountsApi } from "../api.ts"
import { AppsRepo } from "../apps/AppsRepo.ts"
import { AccountsConfig } from "../config.ts"
import { checkAuthorizeRequest, parametersFromQuery } from "./AuthorizeRequest.ts"
import { readFlowCookies } from "./flowCookies.ts"
import { flowCreationsPerIp } from "./flowLimits.ts"
import { FlowEngine } from "./FlowEngine.ts"
import { withQuery } from "./redirectUri.ts"
import { errorPage, found, hostedPage } from "./authorizePages.ts"

export const AuthorizeLive = HttpApiBuilder.group(AccountsApi, "authorize", (handlers) =>
  Effect.gen(function*() {
    const config = yield* AccountsConfig
    const apps = yield* AppsRepo
    const engine = yield* FlowEngine
    const limiter = yield* RateLimiter
    const settings = { production: config.environment === "production" }
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
        if ([...query.keys()].length === 1 && query.has("flow")) return hostedPage()
        const parameters = parametersFromQuery(query)
        const checked = yield* checkAuthorizeRequest(parameters, apps.find)
        if (checked._tag === "Page") return errorPage(checked.code, checked.message)
        if (checked._tag === "Redirect") return backToApp(checked.redirectUri, checked.error, checked.description, checked.state)
        if (!checked.request.prompt.includes("none")) return hostedPage()
        // A flow row is made here as by POST /v1/flows, and counts against the same limit; past it the
        // app hears so on its redirect_uri (RFC 6749's temporarily_unavailable), as prompt=none expects.
        const spent = yield* Effect.either(enforceRateLimit(limiter, flowCreationsPerIp, yield* clientAddress(config.trustProxy)))
        if (Either.isLeft(spent)) {
          return backToApp(checked.request.redirect_uri, "temporarily_unavailable", spent.left.message, checked.request.state)
        }
        // prompt=none shows nothing: the flow is decided now and the browser goes straight back.
        // Deciding a flow just made cannot meet a concurrent change or a missing requirement (decideSilently checks them first).
        const moved = yield* engine.start(checked, parameters.values["timezone"], yield* readFlowCookies(settings)).pipe(
          Effect.catchAll((error) => Effect.dieMessage(`a new flow decided with prompt=none was refused: ${error.code}`))
        )
        yield* Effect.forEach(moved.cookies, (c) => setCookie(settings, c.name, c.value, c.maxAge), { discard: true })
        return found(moved.flow.redirect_to!)
      }))
  })).pipe(Layer.provide([AppsRepo.Default, FlowEngine.Default]))
