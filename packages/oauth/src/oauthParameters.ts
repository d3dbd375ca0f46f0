import type { HttpServerRequest } from "@effect/platform"
import { mediaTypeOf } from "@platform/http"
import { Effect } from "effect"
import { type OAuthError, oauthError } from "./OAuthError.ts"

const JSON_STRING = /"(?:[^"\\]|\\.)*"/g

/**
 * The first key a flat JSON object of strings holds twice (JSON.parse keeps
 * the last silently). In such an object the string tokens alternate key, value.
 */
const repeatedKey = (body: string): string | undefined => {
  const seen = new Set<string>()
  const tokens = body.match(JSON_STRING) ?? []
  for (let index = 0; index < tokens.length; index += 2) {
    const key = JSON.parse(tokens[index] ?? "\"\"") as string
    if (seen.has(key)) return key
    seen.add(key)
  }
  return undefined
}

/**
 * The parameters of an OAuth request (RFC 6749 §3.2): a form body, or a JSON
 * object whose values are all strings. A parameter sent twice is refused
 * (§3.1), in a form or as a JSON key; unknown ones are kept and ignored by the grants.
 */
export const oauthParameters = (
  contentType: string | undefined,
  body: string
): Effect.Effect<ReadonlyMap<string, string>, OAuthError> => {
  const mediaType = contentType === undefined ? "application/x-www-form-urlencoded" : mediaTypeOf(contentType)
  if (mediaType === "application/json") {
    let parsed: unknown
    try {
      parsed = body.trim() === "" ? {} : JSON.parse(body)
    } catch {
      return Effect.fail(oauthError("invalid_request", "The JSON body is malformed."))
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      return Effect.fail(oauthError("invalid_request", "The JSON body must be an object of strings."))
    }
    const parameters = new Map<string, string>()
    for (const [name, value] of Object.entries(parsed)) {
      if (typeof value !== "string") {
        return Effect.fail(oauthError("invalid_request", `Parameter ${name} must be a string.`))
      }
      parameters.set(name, value)
    }
    const repeated = repeatedKey(body)
    if (repeated !== undefined) return Effect.fail(oauthError("invalid_request", `Parameter ${repeated} is repeated.`))
    return Effect.succeed(parameters)
  }
  const parameters = new Map<string, string>()
  for (const [name, value] of new URLSearchParams(body)) {
    if (parameters.has(name)) return Effect.fail(oauthError("invalid_request", `Parameter ${name} is repeated.`))
    parameters.set(name, value)
  }
  return Effect.succeed(parameters)
}

/** The OAuth parameters of the request being served (a route that reads its own body: `handleRaw`). */
export const requestParameters = (request: HttpServerRequest.HttpServerRequest): Effect.Effect<ReadonlyMap<string, string>, OAuthError> =>
  Effect.flatMap(Effect.orDie(request.text), (body) => oauthParameters(request.headers["content-type"], body))

/** A parameter that must be present and not empty. */
export const required = (parameters: ReadonlyMap<string, string>, name: string): Effect.Effect<string, OAuthError> => {
  const value = parameters.get(name)
  return value === undefined || value === ""
    ? Effect.fail(oauthError("invalid_request", `Parameter ${name} is missing.`))
    : Effect.succeed(value)
}
