import { HttpApiBuilder, HttpServerRequest } from "@effect/platform"
import { setCookie } from "@platform/http"
import { Effect, Layer } from "effect"
import { AccountsApi } from "../api.ts"
import { AppsRepo } from "../apps/AppsRepo.ts"
import { AccountsConfig } from "../config.ts"
import { checkAuthorizeRequest, parametersFromQuery } from "./AuthorizeRequest.ts"
import { readFlowCookies } from "./flowCookies.ts"
import { FlowEngine } from "./FlowEngine.ts"
import { withQuery } from "./redirectUri.ts"
import { errorPage, found, hostedPage } from "./authorizePages.ts"

export const AuthorizeLive = HttpApiBuilder.group(AccountsApi, "authorize", (handlers) =>
  Effect.gen(function*() {
    const config = yield* AccountsConfig
    const apps = yield* AppsRepo
    const engine = yield* FlowEngine
    const settings = { production: config.environment === "production" }

    return handlers.handle("authorize", () =>
      Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        const query = new URL(request.url, config.publicUrl).searchParams
        // `?flow=<id>` alone: the page of a flow under way, where a provider's callback sends the browser back.
        if ([...query.keys()].length === 1 && query.has("flow")) return hostedPage()
        const parameters = parametersFromQuery(query)
        const checked = yield* checkAuthorizeRequest(parameters, apps.find)
        if (checked._tag === "Page") return errorPage(checked.code, checked.message)
        if (checked._tag === "Redirect") {
          return found(withQuery(checked.redirectUri, [
            ["error", checked.error],
            ["error_description", checked.description],
            ...(checked.state === null ? [] : [["state", checked.state] as const]),
            ["iss", config.publicUrl]
          ]))
        }
        if (!checked.request.prompt.includes("none")) return hostedPage()
        // prompt=none shows nothing: the flow is decided now and the browser goes straight back.
        // Deciding a flow just made cannot meet a concurrent change or a missing requirement (decideSilently checks them first).
        const moved = yield* engine.start(checked, parameters.values["timezone"], yield* readFlowCookies(settings)).pipe(
          Effect.catchAll((error) => Effect.dieMessage(`a new flow decided with prompt=none was refused: ${error.code}`))
        )
        yield* Effect.forEach(moved.cookies, (c) => setCookie(settings, c.name, c.value, c.maxAge), { discard: true })
        return found(moved.flow.redirect_to!)
      }))
  })).pipe(Layer.provide([AppsRepo.Default, FlowEngine.Default]))
