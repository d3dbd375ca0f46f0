import { HttpApp, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"

const challengeOf = (status: number, tokenSent: boolean): string | undefined =>
  status === 401 ? (tokenSent ? `Bearer error="invalid_token"` : "Bearer") : status === 400 ? `Bearer error="invalid_request"` : undefined

/**
 * RFC 6750 §3: a 401 from a bearer-protected resource names the scheme, and
 * `invalid_token` when a token was sent (none for a request without one); a
 * 400 (the token sent two ways) names `invalid_request`.
 */
export const bearerChallenge = (tokenSent: boolean): Effect.Effect<void> =>
  HttpApp.appendPreResponseHandler((_request, response) => {
    const challenge = challengeOf(response.status, tokenSent)
    return Effect.succeed(challenge === undefined ? response : HttpServerResponse.setHeader(response, "www-authenticate", challenge))
  })
