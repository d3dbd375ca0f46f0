import { HttpApp, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"

/**
 * RFC 6750 §3: a 401 from a bearer-protected resource names the scheme, and
 * `invalid_token` when a token was sent (none for a request without one).
 */
export const bearerChallenge = (tokenSent: boolean): Effect.Effect<void> =>
  HttpApp.appendPreResponseHandler((_request, response) =>
    Effect.succeed(
      response.status === 401
        ? HttpServerResponse.setHeader(response, "www-authenticate", tokenSent ? `Bearer error="invalid_token"` : "Bearer")
        : response
    )
  )
