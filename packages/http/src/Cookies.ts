import { HttpApp, HttpServerResponse } from "@effect/platform"
import { Duration, Effect } from "effect"

export interface CookieSettings {
  /** Production cookies are `__Host-` prefixed and Secure; development ones work over plain http on localhost. */
  readonly production: boolean
}

/** The name a cookie is set and read under: `__Host-<name>` in production. */
export const cookieName = (settings: CookieSettings, name: string): string =>
  settings.production ? `__Host-${name}` : name

/** Sets an HttpOnly, SameSite=Lax, Path=/ cookie on this request's response. */
export const setCookie = (
  settings: CookieSettings,
  name: string,
  value: string,
  maxAge: Duration.DurationInput
): Effect.Effect<void> =>
  HttpApp.appendPreResponseHandler((_request, response) =>
    Effect.orDie(HttpServerResponse.setCookie(response, cookieName(settings, name), value, {
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      secure: settings.production,
      maxAge: Duration.decode(maxAge)
    }))
  )

/** Removes a cookie set by `setCookie`. */
export const clearCookie = (settings: CookieSettings, name: string): Effect.Effect<void> =>
  setCookie(settings, name, "", Duration.zero)
