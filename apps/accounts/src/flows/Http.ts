import { clientAddress, noStore, requireOrigin } from "@platform/http"
import { enforceRateLimit, RateLimiter } from "@platform/rate-limit"
import { Effect, Layer } from "effect"
import { AccountsApi } from "../api.ts"
import { AccountsConfig } from "../config.ts"
import { FlowCodeMoves } from "./FlowCodeMoves.ts"
import type { Moved } from "./FlowCore.ts"
import { FlowEngine } from "./FlowEngine.ts"
import { FlowProviderMoves } from "./FlowProviderMoves.ts"
import { FlowSignupPhoto } from "./FlowSignupPhoto.ts"
import { requestMediaType } from "../profile/requestMediaType.ts"
import { answerMoved, readFlowCookies } from "./flowCookies.ts"
import { flowCreationsPerIp } from "./flowLimits.ts"
import { AuthorizeLive } from "./AuthorizeHttp.ts"
import { SigninPagesLive } from "./PagesHttp.ts"
import { ProvidersLive } from "./ProviderCallbackHttp.ts"
import { compiledGroup } from "@platform/service"

/** A used code or a claimed provider answer must not be lost to a dropped connection: those moves run to the end. */
const toTheEnd = { uninterruptible: true } as const

const HostedFlowLive = compiledGroup(AccountsApi, "flows", (handlers) =>
  Effect.gen(function*() {
    const config = yield* AccountsConfig
    const engine = yield* FlowEngine
    const codeMoves = yield* FlowCodeMoves
    const providerMoves = yield* FlowProviderMoves
    const signupPhoto = yield* FlowSignupPhoto
    const limiter = yield* RateLimiter
    const settings = { production: config.environment === "production" }
    const cookies = readFlowCookies(settings)
    const ip = clientAddress(config.trustProxy)
    /** Every flow POST: our own origin only. */
    const post = Effect.zipRight(noStore, requireOrigin([config.publicUrl]))
    const answer = (moved: Moved) => answerMoved(settings, moved)

    return handlers
      .handle("create", ({ payload }) =>
        Effect.gen(function*() {
          yield* post
          yield* enforceRateLimit(limiter, flowCreationsPerIp, yield* ip)
          return yield* answer(yield* engine.create(payload, yield* cookies))
        }))
      .handle("get", ({ path }) =>
        Effect.gen(function*() {
          yield* noStore
          return yield* answer(yield* providerMoves.get(path.id, yield* cookies))
        }), toTheEnd)
      .handle("continue", ({ path }) =>
        Effect.zipRight(post, Effect.flatMap(Effect.flatMap(cookies, (c) => engine.continueAs(path.id, c)), answer)))
      .handle("switch", ({ path }) =>
        Effect.zipRight(post, Effect.flatMap(Effect.flatMap(cookies, (c) => engine.switchAccount(path.id, c)), answer)))
      .handle("code", ({ path, payload }) =>
        Effect.gen(function*() {
          yield* post
          return yield* answer(yield* codeMoves.requestCode(path.id, yield* cookies, yield* ip, payload.channel, payload.destination))
        }))
      .handle("resend", ({ path }) =>
        Effect.gen(function*() {
          yield* post
          return yield* answer(yield* codeMoves.resendCode(path.id, yield* cookies, yield* ip))
        }))
      .handle("verify", ({ path, payload }) =>
        Effect.gen(function*() {
          yield* post
          return yield* answer(yield* codeMoves.verifyCode(path.id, yield* cookies, payload.code))
        }), toTheEnd)
      .handle("signup", ({ path, payload }) =>
        Effect.gen(function*() {
          yield* post
          return yield* answer(yield* codeMoves.signup(path.id, yield* cookies, payload))
        }), toTheEnd)
      .handle("signupPhoto", ({ path, payload }) =>
        Effect.gen(function*() {
          yield* post
          return yield* answer(yield* signupPhoto.upload(path.id, yield* cookies, yield* requestMediaType, payload))
        }))
      .handle("provider", ({ path }) =>
        Effect.gen(function*() {
          yield* post
          const started = yield* providerMoves.start(path.id, yield* cookies, path.provider)
          const { flow } = yield* answer(started)
          return { flow, authorization_url: started.authorization_url }
        }))
      .handle("detailsAdd", ({ path, payload }) =>
        Effect.gen(function*() {
          yield* post
          return yield* answer(yield* codeMoves.addDetail(path.id, yield* cookies, yield* ip, payload.field, payload.value))
        }))
      .handle("detailsVerify", ({ path, payload }) =>
        Effect.gen(function*() {
          yield* post
          return yield* answer(yield* codeMoves.verifyDetail(path.id, yield* cookies, payload.field, payload.code))
        }), toTheEnd)
      .handle("detailsContinue", ({ path, payload }) =>
        Effect.zipRight(post, Effect.flatMap(Effect.flatMap(cookies, (c) => engine.continueDetails(path.id, c, payload.shared)), answer)))
      .handle("detailsBack", ({ path }) =>
        Effect.zipRight(post, Effect.flatMap(Effect.flatMap(cookies, (c) => engine.back(path.id, c)), answer)))
      .handle("review", ({ path }) =>
        Effect.zipRight(post, Effect.flatMap(Effect.flatMap(cookies, (c) => engine.review(path.id, c)), answer)))
      .handle("cancel", ({ path }) =>
        Effect.zipRight(post, Effect.flatMap(Effect.flatMap(cookies, (c) => engine.cancel(path.id, c)), answer)))
  })).pipe(Layer.provide([FlowCodeMoves.Default, FlowProviderMoves.Default, FlowEngine.Default, FlowSignupPhoto.Default]))

/** The flows area: the hosted flow, /authorize that starts it, its pages' forms, and the providers' callbacks. */
export const FlowsLive = Layer.mergeAll(HostedFlowLive, AuthorizeLive, SigninPagesLive, ProvidersLive)
