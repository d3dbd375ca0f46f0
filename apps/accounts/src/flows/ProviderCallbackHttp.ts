import { HttpApiBuilder, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { constantTimeEqual, sha256Hex } from "@platform/crypto"
import { Effect, Either, Layer, Option } from "effect"
import { normalizeAddress } from "../accounts/contactAddresses.ts"
import { AccountsApi } from "../api.ts"
import { AppsRepo } from "../apps/AppsRepo.ts"
import { AccountsConfig } from "../config.ts"
import { now } from "@platform/service"
import { failedAnswer, type ProviderAnswer, ProviderFailed, type ProviderFailureCode } from "../providers/ProviderAnswer.ts"
import { type ExternalProvider, providerCallbackUrl, ProviderRegistry } from "../providers/ProviderRegistry.ts"
import { type TakenRoundTrip, RoundTrips } from "../providers/RoundTrips.ts"
import { errorPage, found } from "./authorizePages.ts"
import { readFlowCookies } from "./flowCookies.ts"
import type { FlowRow } from "./FlowRow.ts"
import { FlowsRepo } from "./FlowsRepo.ts"

const fail = (code: ProviderFailureCode, message: string) => Effect.fail(new ProviderFailed({ code, message }))

const text = (value: unknown): string | null => typeof value === "string" && value.length > 0 ? value : null

const unknownState = () => errorPage("invalid_state", "This answer from an identity provider is unknown, expired or already used.")

export const ProvidersLive = HttpApiBuilder.group(AccountsApi, "providers", (handlers) =>
  Effect.gen(function*() {
    const config = yield* AccountsConfig
    const registry = yield* ProviderRegistry
    const trips = yield* RoundTrips
    const flows = yield* FlowsRepo
    const apps = yield* AppsRepo
    const cookies = readFlowCookies({ production: config.environment === "production" })

    /** The provider's answer to a round trip, checked: a verified identity, or why not. */
    const decide = (provider: ExternalProvider, flow: FlowRow, trip: TakenRoundTrip, state: string, query: URLSearchParams) =>
      Effect.gen(function*() {
        const error = query.get("error")
        if (error === provider.cancelError) return yield* fail("provider_cancelled", "Signing in at the identity provider was cancelled.")
        if (error !== null) return yield* fail("provider_error", "The identity provider could not sign you in.")
        const app = Option.getOrThrow(yield* apps.find(flow.app_id))
        const client = provider.clientFor(app)
        if (Option.isNone(client) || client.value.clientId !== trip.client_id) {
          return yield* fail("provider_config_changed", "The app changed how it signs in with this provider meanwhile.")
        }
        const callback = new URL(providerCallbackUrl(config.publicUrl, provider.name))
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

    return handlers
      .handle("callback", ({ path }) =>
        Effect.gen(function*() {
          const request = yield* HttpServerRequest.HttpServerRequest
          const query = new URL(request.url, config.publicUrl).searchParams
          const provider = registry.lookup(path.provider)
          const states = query.getAll("state")
          if (Option.isNone(provider) || states.length !== 1) {
            return errorPage("invalid_state", "This answer from an identity provider is not one we asked for.")
          }
          const state = states[0]!
          const formPost = provider.value.responseMode === "form_post"
          const taken = yield* trips.take(provider.value.name, state, yield* now, formPost)
          if (Option.isNone(taken)) return unknownState()
          const trip = taken.value
          // A form_post provider's answer is the one its POST held; the query carries only the state.
          const answered = formPost ? new URLSearchParams({ ...trip.form_post, state }) : query
          const flow = Option.getOrThrow(yield* flows.find(trip.flow_id))
          const held = (yield* cookies).flow
          if (held === undefined || !constantTimeEqual(sha256Hex(held), flow.cookie_hash)) {
            // Not this browser's flow: nothing is exchanged, so a forwarded answer cannot sign this browser in.
            yield* trips.answer(state, {
              kind: "failed",
              code: "provider_answer_elsewhere",
              message: "The identity provider answered in another browser or window."
            })
            return errorPage(
              "provider_answer_elsewhere",
              "This sign-in was started in another browser or window.",
              "Go back to the window where you started signing in, and try again there."
            )
          }
          const answer = yield* decide(provider.value, flow, trip, state, answered).pipe(
            Effect.catchTag("ProviderFailed", (failure) => Effect.succeed(failedAnswer(failure)))
          )
          yield* trips.answer(state, answer)
          return found(`${config.publicUrl}/authorize?flow=${encodeURIComponent(flow.id)}`)
        }), { uninterruptible: true })
      .handle("callbackFormPost", ({ path, payload }) =>
        Effect.gen(function*() {
          // A cross-site POST carries no cookie of ours, so nothing is decided here: the answer is held
          // on its trip and the browser sent on, same-site, to the GET that has the flow cookie.
          const provider = registry.lookup(path.provider)
          const { state, ...answer } = payload
          if (Option.isNone(provider) || provider.value.responseMode !== "form_post" || state === undefined) {
            return errorPage("invalid_state", "This answer from an identity provider is not one we asked for.")
          }
          const name = provider.value.name
          const held = Object.fromEntries(Object.entries(answer).filter((entry): entry is [string, string] => entry[1] !== undefined))
          if (!(yield* trips.hold(name, state, held, yield* now))) return unknownState()
          return HttpServerResponse.empty({
            status: 303,
            headers: {
              location: `${providerCallbackUrl(config.publicUrl, name)}?state=${encodeURIComponent(state)}`,
              "cache-control": "no-store"
            }
          })
        }), { uninterruptible: true })
  })).pipe(Layer.provide([ProviderRegistry.Default, RoundTrips.Default, AppsRepo.Default, FlowsRepo.Default]))
