import type { OAuthError } from "@platform/oauth"
import { Context, Effect, Layer } from "effect"
import type { AppTokenResponse } from "./AppTokenResponse.ts"
import type { OAuthClient } from "./OAuthClient.ts"
import type { TokenResponse } from "./TokenResponse.ts"

/** A grant's answer: the first-party Token response, or an app's. */
export type TokenAnswer = TokenResponse | AppTokenResponse

/**
 * One grant_type of the token endpoint. It runs once the client is authenticated
 * and allowed the grant, and answers tokens or an OAuth error.
 */
export interface Grant {
  readonly grantType: string
  readonly run: (client: OAuthClient, parameters: ReadonlyMap<string, string>) => Effect.Effect<TokenAnswer, OAuthError>
}

/**
 * The grants this deployment runs, keyed by grant_type: oauth's own, and those other
 * areas plug in (`addGrant`), so the token endpoint never imports the areas it serves.
 */
export class TokenGrants extends Context.Tag("accounts/TokenGrants")<TokenGrants, ReadonlyMap<string, Grant>>() {}

/**
 * A grant whose steps need services: they are taken when the grant is built, and the
 * request's own context (its span, its request) still wins, as HttpApiBuilder does for handlers.
 */
export const grantOf = <R>(
  grantType: string,
  run: (client: OAuthClient, parameters: ReadonlyMap<string, string>) => Effect.Effect<TokenAnswer, OAuthError, R>
): Effect.Effect<Grant, never, R> =>
  Effect.map(Effect.context<R>(), (context) => ({
    grantType,
    run: (client, parameters) =>
      Effect.mapInputContext(run(client, parameters), (input: Context.Context<never>) => Context.merge(context, input))
  }))

/** A layer adding one grant to the TokenGrants of the layer below it. */
export const addGrant = <R>(grant: Effect.Effect<Grant, never, R>): Layer.Layer<TokenGrants, never, TokenGrants | R> =>
  Layer.effect(
    TokenGrants,
    Effect.gen(function*() {
      const below = yield* TokenGrants
      const added = yield* grant
      return new Map([...below, [added.grantType, added]])
    })
  )
