import { HttpServerRespondable } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { oauthError, OAuthErrorResponses } from "../src/index.ts"

describe("OAuthError (RFC 6749 §5.2)", () => {
  it.effect("answers {error, error_description}, never cached; invalid_client is 401, every other code 400", () =>
    Effect.gen(function*() {
      const client = yield* oauthError("invalid_client", "Unknown client.")[HttpServerRespondable.symbol]()
      expect(client.status).toBe(401)
      expect(client.headers["cache-control"]).toBe("no-store")
      expect(client.headers["pragma"]).toBe("no-cache")
      expect(client.body._tag === "Uint8Array" && JSON.parse(new TextDecoder().decode(client.body.body))).toEqual({
        error: "invalid_client",
        error_description: "Unknown client."
      })
      const grant = yield* oauthError("invalid_grant", "Spent.")[HttpServerRespondable.symbol]()
      expect(grant.status).toBe(400)
    }))

  it("declares the two error bodies for OpenAPI under the identifiers OAuthError (400) and OAuthClientError (401)", () => {
    const [badRequest, unauthorized] = OAuthErrorResponses
    expect(Schema.encodeSync(badRequest)(oauthError("invalid_scope", "No."))).toEqual({
      error: "invalid_scope",
      error_description: "No."
    })
    expect(String(badRequest)).toBe("OAuthError")
    expect(String(unauthorized)).toBe("OAuthClientError")
  })
})
