import { clientAddress, noStore } from "@platform/http"
import { carriesNewSecret } from "@platform/idempotency"
import { Effect, Layer } from "effect"
import { IamApi } from "../api.ts"
import { IamConfig } from "../config.ts"
import type { CredentialPair } from "../sessions/CredentialPair.ts"
import { IamBrowserSession } from "../sessions/IamBrowserSession.ts"
import { CarbonLogin } from "./CarbonLogin.ts"
import { Signup } from "./Signup.ts"
import { compiledGroup } from "@platform/service"

/** What the code routes share: the caller's address for the limits, and answers that are never cached. */
const codeRoutes = Effect.gen(function*() {
  const caller = clientAddress((yield* IamConfig).trustProxy)
  const cookie = yield* IamBrowserSession
  return {
    /** A route that sends a code. */
    sending: <A, E, R>(send: (clientAddress: string) => Effect.Effect<A, E, R>) =>
      Effect.zipRight(noStore, Effect.flatMap(caller, send)),
    /** A route whose answer carries a new secret: kept 10 minutes for an Idempotency-Key retry. */
    answering: <A, E, R>(answer: (clientAddress: string) => Effect.Effect<A, E, R>) =>
      Effect.zipRight(Effect.zipRight(noStore, carriesNewSecret), Effect.flatMap(caller, answer)),
    /** A login's answer: the pair, and the browser session cookie bound to its session. */
    loggedIn: (pair: CredentialPair) => Effect.as(cookie.set(pair.session_id, new Date(pair.session_expires_at)), pair)
  }
})

export const LoginLive = compiledGroup(IamApi, "login", (handlers) =>
  Effect.gen(function*() {
    const login = yield* CarbonLogin
    const routes = yield* codeRoutes
    return handlers
      .handle("createChallenge", ({ payload }) => routes.sending((caller) => login.start(payload, caller)))
      .handle("verify", ({ path, payload }) =>
        routes.answering((caller) => Effect.flatMap(login.verify(path.session_id, payload.code, caller), routes.loggedIn)), {
        uninterruptible: true
      })
  })).pipe(Layer.provide([CarbonLogin.Default, IamBrowserSession.Default]))

export const SignupLive = compiledGroup(IamApi, "signup", (handlers) =>
  Effect.gen(function*() {
    const signup = yield* Signup
    const routes = yield* codeRoutes
    return handlers
      .handle("createChallenge", ({ payload }) => routes.sending((caller) => signup.start(payload, caller)))
      .handle("verify", ({ path, payload }) => routes.answering((caller) => signup.verify(path.session_id, payload.code, caller)), {
        uninterruptible: true
      })
      .handle("complete", ({ path, payload }) =>
        routes.answering(() => Effect.flatMap(signup.complete(path.signup_id, payload), routes.loggedIn)), { uninterruptible: true })
  })).pipe(Layer.provide([Signup.Default, IamBrowserSession.Default]))
