import { describe, expect, it } from "@effect/vitest"
import { oauthError } from "@platform/oauth"
import { Context, Effect, Exit, Layer } from "effect"
import { runGrant } from "../src/oauth/endpointSteps.ts"
import type { OAuthClient } from "../src/oauth/OAuthClient.ts"
import { addGrant, grantOf, type TokenAnswer, TokenGrants } from "../src/oauth/TokenGrants.ts"

const FIRST_PARTY: OAuthClient = { kind: "first_party", clientId: "accounts" }
const NO_PARAMETERS: ReadonlyMap<string, string> = new Map()

class Greeting extends Context.Tag("test/Greeting")<Greeting, string>() {}

/** A grant that answers with the Greeting it was built with, as its access token. */
const greetingGrant = (grantType: string) =>
  grantOf(grantType, () =>
    Effect.map(Greeting, (greeting): TokenAnswer => ({
      access_token: greeting,
      token_type: "Bearer",
      expires_in: 1800,
      refresh_token: "sar_x",
      refresh_token_expires_at: "2030-01-01T00:00:00.000Z",
      scope: "profile",
      membership_id: "accounts:u",
      account: {
        kind: "carbon",
        id: "c:x",
        uuid: "u",
        display_name: "X",
        pfp_url: "https://accounts.test/v1/photos/default/u",
        dob: null,
        timezone: "UTC",
        status: "active",
        created_at: "2030-01-01T00:00:00.000Z",
        updated_at: "2030-01-01T00:00:00.000Z",
        version: 1
      }
    })))

const empty = Layer.succeed(TokenGrants, new Map())

describe("TokenGrants: grants plugged in by grant_type", () => {
  it.effect("each plug-in adds its grant to the map below it; a grant runs with the services it was built with", () =>
    Effect.gen(function*() {
      const grants = yield* TokenGrants
      expect([...grants.keys()]).toEqual(["first", "second"])
      const answer = yield* runGrant(grants, "second", FIRST_PARTY, NO_PARAMETERS)
      expect(answer.access_token).toBe("built with hello")
    }).pipe(
      Effect.provide(
        addGrant(greetingGrant("second")).pipe(
          Layer.provide(addGrant(greetingGrant("first"))),
          Layer.provide(empty),
          Layer.provide(Layer.succeed(Greeting, "built with hello"))
        )
      )
    ))

  it.effect("the request's own context wins over the one the grant was built with", () =>
    Effect.gen(function*() {
      const grant = yield* greetingGrant("g").pipe(Effect.provideService(Greeting, "built"))
      const answer = yield* grant.run(FIRST_PARTY, NO_PARAMETERS).pipe(Effect.provideService(Greeting, "request"))
      expect(answer.access_token).toBe("request")
    }))

  it.effect("a grant_type with no grant in the map is unsupported_grant_type, not available yet", () =>
    Effect.gen(function*() {
      const exit = yield* Effect.exit(runGrant(new Map(), "urn:x", FIRST_PARTY, NO_PARAMETERS))
      expect(exit).toEqual(
        Exit.fail(oauthError("unsupported_grant_type", "The grant urn:x is not available on this deployment yet."))
      )
    }))
})
