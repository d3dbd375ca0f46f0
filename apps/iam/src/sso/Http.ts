import { HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { clearCookie, cookieName, noStore, setCookie } from "@platform/http"
import { carriesNewSecret } from "@platform/idempotency"
import { Effect, Layer } from "effect"
import { IamApi } from "../api.ts"
import { CurrentIdentity } from "../auth/CurrentIdentity.ts"
import { IamBearerLive } from "../auth/IamBearer.ts"
import { IamConfig } from "../config.ts"
import { IamBrowserSession } from "../sessions/IamBrowserSession.ts"
import { IamSessions } from "../sessions/IamSessions.ts"
import { SSO_ROUND_TRIP, SSO_STATE_COOKIE, ssoCallbackUrl } from "./policy.ts"
import { ProviderEvents } from "./ProviderEvents.ts"
import { SsoConfiguration } from "./SsoConfiguration.ts"
import { SsoLogin } from "./SsoLogin.ts"
import { compiledGroup } from "@platform/service"

export const OrganizationSsoLive = compiledGroup(IamApi, "organizationSso", (handlers) =>
  Effect.gen(function*() {
    const sso = yield* SsoConfiguration
    const caller = Effect.map(CurrentIdentity, (identity) => identity.uuid)
    return handlers
      .handle("read", ({ path }) => Effect.flatMap(caller, (uuid) => sso.read(path.organization_id, uuid)))
      .handle("createSetupLink", ({ path }) =>
        Effect.zipRight(Effect.zipRight(noStore, carriesNewSecret), Effect.flatMap(caller, (uuid) => sso.createSetupLink(path.organization_id, uuid))))
      .handle("activate", ({ path }) =>
        Effect.flatMap(caller, (uuid) => sso.setConnectionStatus(path.organization_id, path.connection_id, "active", uuid)))
      .handle("deactivate", ({ path }) =>
        Effect.flatMap(caller, (uuid) => sso.setConnectionStatus(path.organization_id, path.connection_id, "inactive", uuid)))
      .handle("disable", ({ path }) => Effect.flatMap(caller, (uuid) => sso.disable(path.organization_id, uuid)))
  })).pipe(Layer.provide([SsoConfiguration.Default, IamBearerLive]), Layer.provide(IamSessions.Default))

export const SsoLive = compiledGroup(IamApi, "sso", (handlers) =>
  Effect.gen(function*() {
    const config = yield* IamConfig
    const sso = yield* SsoConfiguration
    const login = yield* SsoLogin
    const providerEvents = yield* ProviderEvents
    const browser = yield* IamBrowserSession
    const cookies = { production: config.environment === "production" }
    const redirect = (status: 302 | 303, location: string) =>
      HttpServerResponse.empty({ status, headers: { location, "cache-control": "no-store" } })
    return handlers
      .handle("submitProvider", ({ payload }) =>
        Effect.zipRight(Effect.zipRight(noStore, carriesNewSecret), sso.submitProvider(payload.token, payload)).pipe(
          Effect.map((submitted) => ({ ...submitted, redirect_uri: ssoCallbackUrl(config.publicUrl) }))
        ))
      .handle("login", ({ path, urlParams }) =>
        Effect.gen(function*() {
          const started = yield* login.start(path.connection_id, urlParams.return_to)
          yield* setCookie(cookies, SSO_STATE_COOKIE, started.state, SSO_ROUND_TRIP)
          return redirect(302, started.location)
        }))
      .handle("callback", () =>
        Effect.gen(function*() {
          const request = yield* HttpServerRequest.HttpServerRequest
          const held = request.cookies[cookieName(cookies, SSO_STATE_COOKIE)]
          yield* clearCookie(cookies, SSO_STATE_COOKIE)
          const { pair, returnTo } = yield* login.callback(held)
          yield* browser.set(pair.session_id, new Date(pair.session_expires_at))
          return redirect(303, `${config.publicUrl}${returnTo}`)
        }), { uninterruptible: true })
      .handle("providerEvents", ({ path }) => providerEvents.receive(path.connection_id))
  })).pipe(Layer.provide([SsoConfiguration.Default, SsoLogin.Default, ProviderEvents.Default, IamBrowserSession.Default]))
