import { Effect, Layer, Option } from "effect"
import { IamApi } from "../api.ts"
import { CurrentIdentity } from "../auth/CurrentIdentity.ts"
import { IamBearerLive } from "../auth/IamBearer.ts"
import { IamSessions } from "../sessions/IamSessions.ts"
import { AppLogin } from "./AppLogin.ts"
import { distinctBatch, splitIds } from "./batch.ts"
import { compiledGroup } from "@platform/service"

export const AppLoginLive = compiledGroup(IamApi, "appLogin", (handlers) =>
  Effect.map(AppLogin, (login) =>
    handlers
      .handle("organizations", ({ urlParams }) =>
        Effect.gen(function*() {
          const identity = yield* CurrentIdentity
          const appIds = yield* distinctBatch(splitIds(urlParams.app_ids ?? ""))
          const { applications, organizations } = yield* login.overview(Option.some(identity.uuid), appIds)
          return { applications, organizations }
        }))
      .handle("shortLivedTokens", ({ payload }) =>
        Effect.gen(function*() {
          const identity = yield* CurrentIdentity
          const tokens = yield* login.approve({ identityUuid: identity.uuid, sessionId: identity.sessionId }, payload.applications)
          return { tokens }
        })))
).pipe(Layer.provide(IamBearerLive), Layer.provide([AppLogin.Default, IamSessions.Default]))
