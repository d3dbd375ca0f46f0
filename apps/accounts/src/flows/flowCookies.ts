import { HttpServerRequest } from "@effect/platform"
import { type CookieSettings, cookieName, setCookie } from "@platform/http"
import { Effect } from "effect"
import { SESSION_COOKIE } from "../auth/AccountAuth.ts"
import { FLOW_COOKIE, type FlowCookies, type Moved } from "./FlowCore.ts"
import { SIGNUP_COOKIE } from "./SignupSessions.ts"

/** Reads the flow, session and sign-up cookies under their names for this environment (`__Host-` in production). */
export const readFlowCookies = (settings: CookieSettings): Effect.Effect<FlowCookies, never, HttpServerRequest.HttpServerRequest> => {
  const flow = cookieName(settings, FLOW_COOKIE)
  const session = cookieName(settings, SESSION_COOKIE)
  const signup = cookieName(settings, SIGNUP_COOKIE)
  return Effect.map(HttpServerRequest.HttpServerRequest, (request) => ({
    flow: request.cookies[flow],
    session: request.cookies[session],
    signup: request.cookies[signup]
  }))
}

/** Sets the cookies a move asked for and answers `{flow}`. */
export const answerMoved = (settings: CookieSettings, moved: Moved) =>
  Effect.as(
    Effect.forEach(moved.cookies, (cookie) => setCookie(settings, cookie.name, cookie.value, cookie.maxAge), { discard: true }),
    { flow: moved.flow }
  )
