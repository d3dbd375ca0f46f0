import { HttpServerRequest } from "@effect/platform"
import { clientAddress, noStore } from "@platform/http"
import { carriesNewSecret } from "@platform/idempotency"
import { enforceRateLimit, RateLimiter, type RateLimitRule } from "@platform/rate-limit"
import { Effect, Layer } from "effect"
import { IamApi } from "../api.ts"
import { IamConfig } from "../config.ts"
import { IamSessions } from "../sessions/IamSessions.ts"
import { siliconCredentialsOf } from "./siliconCredentialsOf.ts"
import { SiliconLogin } from "./SiliconLogin.ts"
import { compiledGroup } from "@platform/service"

/** Spec 1's limit on Silicon sign-ins, kept for IAM's (decisions.md, "Silicon login"). */
const logins: RateLimitRule = {
  id: "iam_silicon_login",
  operation: "POST /api/v1/silicon-auth/token",
  limit: 60,
  window: "1 minute",
  per: "IP"
}

export const SiliconAuthLive = compiledGroup(IamApi, "siliconAuth", (handlers) =>
  Effect.gen(function*() {
    const config = yield* IamConfig
    const limiter = yield* RateLimiter
    const login = yield* SiliconLogin
    const sessions = yield* IamSessions
    return handlers.handle("token", ({ payload }) =>
      Effect.gen(function*() {
        yield* noStore
        yield* carriesNewSecret
        yield* enforceRateLimit(limiter, logins, yield* clientAddress(config.trustProxy))
        const request = yield* HttpServerRequest.HttpServerRequest
        const { token, username } = yield* siliconCredentialsOf(request.headers["authorization"], payload)
        const identity = yield* login.check(username, token)
        return yield* sessions.open(identity, "silicon_token")
      }))
  })).pipe(Layer.provide([SiliconLogin.Default, IamSessions.Default]))
