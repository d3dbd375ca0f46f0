import { HttpApiMiddleware, HttpServerRequest } from "@effect/platform"
import { bearerToken } from "@platform/auth"
import { errorResponse } from "@platform/http"
import { Effect, Layer, Option } from "effect"
import { IamSessions } from "../sessions/IamSessions.ts"
import { CurrentIdentity } from "./CurrentIdentity.ts"
import { Unauthenticated } from "./errors.ts"

/** Routes for a Carbon or Silicon signed in to IAM: `Authorization: Bearer <IAM access token>`. */
export class IamBearer extends HttpApiMiddleware.Tag<IamBearer>()("IamBearer", {
  failure: errorResponse(Unauthenticated),
  provides: CurrentIdentity
}) {}

const refused = new Unauthenticated({
  message: "Send a current IAM access token as `Authorization: Bearer <token>`.",
  hint: "Access tokens last 30 minutes: refresh with the refresh token, or log in again."
})

export const IamBearerLive = Layer.effect(
  IamBearer,
  Effect.map(IamSessions, (sessions) =>
    Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const token = bearerToken(request.headers["authorization"])
      if (token === undefined) return yield* Effect.fail(refused)
      const access = yield* sessions.authenticate(token)
      if (Option.isNone(access)) return yield* Effect.fail(refused)
      const { handle, identity_uuid, kind, session_id } = access.value
      return { uuid: identity_uuid, id: handle, kind, sessionId: session_id }
    }))
)
