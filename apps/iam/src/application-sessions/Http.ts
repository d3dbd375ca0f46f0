import { type HttpServerRequest } from "@effect/platform"
import { noStore } from "@platform/http"
import { SHORT_LIVED_TOKEN_GRANT } from "@platform/iam-app-api"
import { carriesNewSecret } from "@platform/idempotency"
import { authenticateClient, invalidClient, oauthError, REFRESH_TOKEN, requestParameters, required } from "@platform/oauth"
import { Effect, Layer, Option } from "effect"
import { IamApi } from "../api.ts"
import { Applications } from "../applications/Applications.ts"
import { ApplicationSessions } from "./ApplicationSessions.ts"
import { authenticateApplication, NO_PUBLIC_CLIENTS } from "./authenticateApplication.ts"
import { APPLICATION_ACCESS_PREFIX } from "./tokenFormats.ts"
import { INACTIVE } from "./answers.ts"
import { OnBehalfOfProofs } from "./OnBehalfOfProofs.ts"
import { compiledGroup } from "@platform/service"

/** Every answer here is about credentials: never cached. The parameters, then the application they come from. */
const authenticated = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function*() {
    yield* noStore
    const parameters = yield* requestParameters(request)
    const appId = yield* authenticateApplication(request, parameters)
    return { parameters, appId }
  })

export const ApplicationSessionsLive = compiledGroup(IamApi, "applicationSessions", (handlers) =>
  Effect.gen(function*() {
    const sessions = yield* ApplicationSessions
    const applications = yield* Applications
    return handlers
      .handleRaw("token", ({ request }) =>
        Effect.gen(function*() {
          const { appId, parameters } = yield* authenticated(request)
          const grantType = yield* required(parameters, "grant_type")
          const application = yield* Effect.orDie(applications.existing(appId))
          yield* carriesNewSecret
          if (grantType === SHORT_LIVED_TOKEN_GRANT) return yield* sessions.exchange(application, yield* required(parameters, "slt"))
          if (grantType === REFRESH_TOKEN) return yield* sessions.refresh(application, yield* required(parameters, "refresh_token"))
          return yield* oauthError("unsupported_grant_type", `IAM's token endpoint takes ${SHORT_LIVED_TOKEN_GRANT} and refresh_token.`)
        }), { uninterruptible: true })
      .handleRaw("introspect", ({ request }) =>
        Effect.gen(function*() {
          yield* noStore
          const parameters = yield* requestParameters(request)
          const token = parameters.get("token")
          if (token?.startsWith(APPLICATION_ACCESS_PREFIX) === true) {
            // The hot path: the client's secret and the token are read in one statement.
            const client = yield* authenticateClient({
              publicClients: NO_PUBLIC_CLIENTS,
              verifySecret: (appId, secret) =>
                Effect.flatMap(sessions.introspectAccessAs(appId, secret, token), Option.match({
                  onNone: () => Effect.fail(invalidClient()),
                  onSome: Effect.succeed
                }))
            }, request.headers["authorization"], parameters)
            // IAM has no public clients: every caller here proved a secret.
            return client.kind === "confidential" ? client.verified : INACTIVE
          }
          const appId = yield* authenticateApplication(request, parameters)
          return yield* sessions.introspect(appId, yield* required(parameters, "token"))
        }))
      .handleRaw("revoke", ({ request }) =>
        Effect.gen(function*() {
          const { appId, parameters } = yield* authenticated(request)
          yield* sessions.revoke(appId, yield* required(parameters, "token"))
        }))
  })).pipe(Layer.provide([ApplicationSessions.Default, Applications.Default]))

export const OnBehalfOfLive = compiledGroup(IamApi, "onBehalfOf", (handlers) =>
  Effect.gen(function*() {
    const proofs = yield* OnBehalfOfProofs
    return handlers
      .handleRaw("prove", ({ request }) =>
        Effect.gen(function*() {
          const { appId, parameters } = yield* authenticated(request)
          const accessToken = yield* required(parameters, "access_token")
          const audience = yield* required(parameters, "audience")
          yield* carriesNewSecret
          return yield* proofs.prove(appId, accessToken, audience)
        }))
      .handleRaw("verify", ({ request }) =>
        Effect.gen(function*() {
          const { appId, parameters } = yield* authenticated(request)
          return yield* proofs.verify(appId, yield* required(parameters, "proof"))
        }), { uninterruptible: true })
  })).pipe(Layer.provide([OnBehalfOfProofs.Default, Applications.Default]))
