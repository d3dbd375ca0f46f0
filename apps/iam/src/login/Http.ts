import { HttpApiBuilder } from "@effect/platform"
import { clientAddress, noStore } from "@platform/http"
import { carriesNewSecret } from "@platform/idempotency"
import { Effect, Layer } from "effect"
import { IamApi } from "../api.ts"
import { IamConfig } from "../config.ts"
import type { CredentialPair } from "../sessions/CredentialPair.ts"
import { IamBrowserSession } from "../sessions/IamBrowserSession.ts"
import { CarbonLogin } from "./CarbonLogin.ts"
import { Signup } from "./Signup.ts"

/** What every answer carrying a credential pair does first: no caching, kept 10 minutes by Idempotency-Key. */
const secretAnswer = Effect.zipRight(noStore, carriesNewSecret)

/** A login's answer: the pair, and the browser session cookie bound to its session. */
const loggedIn = (cookie: IamBrowserSession) => (pair: CredentialPair) =>
  Effect.as(cookie.set(pair.session_id, new Date(pair.session_expires_at)), pair)

export const LoginLive = HttpApiBuilder.group(IamApi, "login", (handlers) =>
  Effect.gen(function*() {
    const config = yield* IamConfig
    const login = yield* CarbonLogin
    const cookie = yield* IamBrowserSession
    const caller = clientAddress(config.trustProxy)
    return handlers
      .handle("createChallenge", ({ payload }) =>
        Effect.gen(function*() {
          yield* noStore
          return yield* login.start(payload, yield* caller)
        }))
      .handle("verify", ({ path, payload }) =>
        Effect.gen(function*() {
          yield* secretAnswer
          return yield* Effect.flatMap(login.verify(path.session_id, payload.code, yield* caller), loggedIn(cookie))
        }), { uninterruptible: true })
  })).pipe(Layer.provide([CarbonLogin.Default, IamBrowserSession.Default]))

export const SignupLive = HttpApiBuilder.group(IamApi, "signup", (handlers) =>
  Effect.gen(function*() {
    const config = yield* IamConfig
    const signup = yield* Signup
    const cookie = yield* IamBrowserSession
    const caller = clientAddress(config.trustProxy)
    return handlers
      .handle("createChallenge", ({ payload }) =>
        Effect.gen(function*() {
          yield* noStore
          return yield* signup.start(payload, yield* caller)
        }))
      .handle("verify", ({ path, payload }) =>
        Effect.gen(function*() {
          yield* secretAnswer
          return yield* signup.verify(path.session_id, payload.code, yield* caller)
        }), { uninterruptible: true })
      .handle("complete", ({ path, payload }) =>
        Effect.gen(function*() {
          yield* secretAnswer
          return yield* Effect.flatMap(signup.complete(path.signup_id, payload), loggedIn(cookie))
        }), { uninterruptible: true })
  })).pipe(Layer.provide([Signup.Default, IamBrowserSession.Default]))
