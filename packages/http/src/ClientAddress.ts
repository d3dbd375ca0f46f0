import { HttpServerRequest } from "@effect/platform"
import { Effect, Option } from "effect"

/**
 * The address rate limits are keyed by: the right-most `X-Forwarded-For`
 * entry (the one our own proxy appended) when the service trusts a proxy,
 * otherwise the socket's peer address.
 */
export const clientAddressOf = (request: HttpServerRequest.HttpServerRequest, trustProxy: boolean): string => {
  if (trustProxy) {
    const forwarded = request.headers["x-forwarded-for"]
    const last = forwarded?.split(",").map((entry) => entry.trim()).filter((entry) => entry.length > 0).at(-1)
    if (last !== undefined) return last
  }
  return Option.getOrElse(request.remoteAddress, () => "unknown")
}

export const clientAddress = (trustProxy: boolean): Effect.Effect<string, never, HttpServerRequest.HttpServerRequest> =>
  Effect.map(HttpServerRequest.HttpServerRequest, (request) => clientAddressOf(request, trustProxy))
