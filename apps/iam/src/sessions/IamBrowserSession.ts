import { HttpServerRequest } from "@effect/platform"
import { clearCookie, cookieName, setCookie } from "@platform/http"
import { now } from "@platform/service"
import { Effect, Option } from "effect"
import { IamConfig } from "../config.ts"
import { IamSessions } from "./IamSessions.ts"
import { makeSessionCookieSigner } from "./sessionCookie.ts"
import type { LiveAccess } from "./SessionsRepo.ts"

/** Spec 2's browser session cookie (`__Host-iam_session` in production, where cookies are Secure). */
export const IAM_SESSION_COOKIE = "iam_session"

/**
 * The `iam_session` cookie: set at login, cleared at logout, and read by the browser pages (the
 * application login handoff) as the session it names. Host-only, HttpOnly, SameSite=Lax, Path=/.
 */
export class IamBrowserSession extends Effect.Service<IamBrowserSession>()("iam/IamBrowserSession", {
  effect: Effect.gen(function*() {
    const config = yield* IamConfig
    const sessions = yield* IamSessions
    const signer = makeSessionCookieSigner(config.secretKey)
    const settings = { production: config.environment === "production" }
    const name = cookieName(settings, IAM_SESSION_COOKIE)
    return {
      /** Sets the cookie on this response for a session just opened, until the session's own end. */
      set: (sessionId: string, sessionExpiresAt: Date) =>
        Effect.flatMap(now, (at) =>
          setCookie(settings, IAM_SESSION_COOKIE, signer.sign(sessionId), Math.max(0, sessionExpiresAt.getTime() - at.getTime()))),
      /** Removes the cookie on this response. */
      clear: clearCookie(settings, IAM_SESSION_COOKIE),
      /** The open session the request's cookie names (signature checked, session and identity live); none without one. */
      fromRequest: Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        const value = Option.fromNullable(request.cookies[name])
        const sessionId = Option.flatMap(value, signer.read)
        return Option.isNone(sessionId) ? Option.none<LiveAccess>() : yield* sessions.live(sessionId.value)
      })
    }
  }),
  dependencies: [IamSessions.Default]
}) {}
