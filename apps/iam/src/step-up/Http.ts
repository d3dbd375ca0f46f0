import { clientAddress, noStore } from "@platform/http"
import { carriesNewSecret } from "@platform/idempotency"
import { Effect, Layer } from "effect"
import { IamApi } from "../api.ts"
import { CurrentIdentity } from "../auth/CurrentIdentity.ts"
import { IamBearerLive } from "../auth/IamBearer.ts"
import { IamConfig } from "../config.ts"
import { IamSessions } from "../sessions/IamSessions.ts"
import { StepUps } from "./StepUps.ts"
import { compiledGroup } from "@platform/service"

export const StepUpLive = compiledGroup(IamApi, "stepUp", (handlers) =>
  Effect.gen(function*() {
    const config = yield* IamConfig
    const stepUps = yield* StepUps
    const caller = clientAddress(config.trustProxy)
    return handlers
      .handle("createChallenge", ({ payload }) =>
        Effect.gen(function*() {
          yield* noStore
          return yield* stepUps.start(yield* CurrentIdentity, payload, yield* caller)
        }))
      .handle("verify", ({ path, payload }) =>
        Effect.gen(function*() {
          yield* noStore
          yield* carriesNewSecret
          return yield* stepUps.verify(yield* CurrentIdentity, path.session_id, payload.code, yield* caller)
        }), { uninterruptible: true })
  })).pipe(Layer.provide(IamBearerLive), Layer.provide([StepUps.Default, IamSessions.Default]))
