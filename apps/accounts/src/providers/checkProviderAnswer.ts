import { Effect, Either, Option } from "effect"
import { normalizeAddress } from "@platform/verification-codes"
import type { AppRow } from "../apps/AppRecord.ts"
import { type ProviderAnswer, ProviderFailed, type ProviderFailureCode } from "./ProviderAnswer.ts"
import { type ExternalProvider, providerCallbackUrl } from "./ProviderRegistry.ts"

const fail = (code: ProviderFailureCode, message: string) => Effect.fail(new ProviderFailed({ code, message }))

const text = (value: unknown): string | null => typeof value === "string" && value.length > 0 ? value : null

/** What a round trip kept for its one answer: the client it started with, and the one-time checks. */
export interface TripChecks {
  readonly client_id: string
  readonly nonce: string
  readonly code_verifier: string
}

/**
 * The provider's answer to a round trip, checked for `app` (whose client the trip used): a verified
 * identity, or the flow-level error value of spec 1 that says why not. Used by a flow's round trip
 * and by linking an identity to a signed-in account alike.
 */
export const checkProviderAnswer = (
  publicUrl: string,
  provider: ExternalProvider,
  app: AppRow,
  trip: TripChecks,
  state: string,
  query: URLSearchParams
): Effect.Effect<ProviderAnswer, ProviderFailed> =>
  Effect.gen(function*() {
    const error = query.get("error")
    if (error === provider.cancelError) return yield* fail("provider_cancelled", "Signing in at the identity provider was cancelled.")
    if (error !== null) return yield* fail("provider_error", "The identity provider could not sign you in.")
    const client = provider.clientFor(app)
    if (Option.isNone(client) || client.value.clientId !== trip.client_id) {
      return yield* fail("provider_config_changed", "The app changed how it signs in with this provider meanwhile.")
    }
    const callback = new URL(providerCallbackUrl(publicUrl, provider.name))
    callback.search = new URLSearchParams([...query].filter(([name]) => name !== "user")).toString()
    const claims = yield* provider.relyingParty.exchange(client.value, callback, {
      state,
      nonce: trip.nonce,
      codeVerifier: trip.code_verifier
    })
    const refusal = provider.admit(app.signin_config, claims)
    if (Option.isSome(refusal)) return yield* Effect.fail(refusal.value)
    const email = text(claims.email)
    if (email === null) return yield* fail("provider_email_invalid", "The identity provider shared no email address.")
    // idp_b sends it as the string "true" or "false".
    if (claims.email_verified !== true && claims.email_verified !== "true") {
      return yield* fail("email_not_verified", "The identity provider has not verified this email address.")
    }
    const address = normalizeAddress("email", email)
    if (Either.isLeft(address)) {
      return yield* fail("provider_email_invalid", "The identity provider's email address is not one we can use.")
    }
    return {
      kind: "identity",
      identity: {
        subject: claims.sub,
        email: address.right,
        name: provider.nameOf(claims, query),
        picture: text(claims.picture)
      }
    } satisfies ProviderAnswer
  })
