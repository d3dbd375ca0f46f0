import { HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { constantTimeEqual, sha256Hex } from "@platform/crypto"
import { Effect, Layer, Option } from "effect"
import { AccountsApi } from "../api.ts"
import { AppsRepo } from "../apps/AppsRepo.ts"
import { AccountsConfig } from "../config.ts"
import { compiledGroup, now } from "@platform/service"
import { checkProviderAnswer } from "../providers/checkProviderAnswer.ts"
import { failedAnswer } from "../providers/ProviderAnswer.ts"
import { type ExternalProvider, providerCallbackUrl, ProviderRegistry } from "../providers/ProviderRegistry.ts"
import { type TakenRoundTrip, RoundTrips } from "../providers/RoundTrips.ts"
import { errorPage, found } from "./authorizePages.ts"
import { readFlowCookies } from "./flowCookies.ts"
import type { FlowRow } from "./FlowRow.ts"
import { FlowsRepo } from "./FlowsRepo.ts"
import { IdentityLinks } from "../identities/IdentityLinks.ts"
import { linkResultPage } from "../identities/linkResultPage.ts"

const unknownState = () => errorPage("invalid_state", "This answer from an identity provider is unknown, expired or already used.")

export const ProvidersLive = compiledGroup(AccountsApi, "providers", (handlers) =>
  Effect.gen(function*() {
    const config = yield* AccountsConfig
    const registry = yield* ProviderRegistry
    const trips = yield* RoundTrips
    const flows = yield* FlowsRepo
    const links = yield* IdentityLinks
    const apps = yield* AppsRepo
    const cookies = readFlowCookies({ production: config.environment === "production" })

    /** The provider's answer to a flow's round trip, checked for the flow's app. */
    const decide = (provider: ExternalProvider, flow: FlowRow, trip: TakenRoundTrip, state: string, query: URLSearchParams) =>
      Effect.flatMap(apps.find(flow.app_id), (app) =>
        checkProviderAnswer(config.publicUrl, provider, Option.getOrThrow(app), trip, state, query))

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
          const at = yield* now
          const taken = yield* trips.take(provider.value.name, state, at, formPost)
          if (Option.isNone(taken)) {
            // Not a flow's round trip: perhaps a signed-in account linking an identity (identities/).
            const link = yield* links.take(provider.value.name, state, at, formPost)
            if (Option.isNone(link)) return unknownState()
            const answered = formPost ? new URLSearchParams({ ...link.value.form_post, state }) : query
            return linkResultPage(yield* links.answer(provider.value, link.value, state, answered, (yield* cookies).session))
          }
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
          const at = yield* now
          if (!(yield* trips.hold(name, state, held, at)) && !(yield* links.hold(name, state, held, at))) return unknownState()
          return HttpServerResponse.empty({
            status: 303,
            headers: {
              location: `${providerCallbackUrl(config.publicUrl, name)}?state=${encodeURIComponent(state)}`,
              "cache-control": "no-store"
            }
          })
        }), { uninterruptible: true })
  })).pipe(Layer.provide([ProviderRegistry.Default, RoundTrips.Default, AppsRepo.Default, FlowsRepo.Default, IdentityLinks.Default]))
