import { HttpApiBuilder } from "@effect/platform"
import { Effect, Layer } from "effect"
import { IamApi } from "../api.ts"
import { CurrentIdentity } from "../auth/CurrentIdentity.ts"
import { IamBearerLive } from "../auth/IamBearer.ts"
import { IamSessions } from "./IamSessions.ts"

export const SessionsLive = HttpApiBuilder.group(IamApi, "sessions", (handlers) =>
  handlers.handle("current", () =>
    Effect.map(CurrentIdentity, (identity) => ({
      session_id: identity.sessionId,
      identity: { uuid: identity.uuid, id: identity.id, kind: identity.kind }
    })))
).pipe(Layer.provide(IamBearerLive), Layer.provide(IamSessions.Default))
