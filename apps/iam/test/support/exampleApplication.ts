import { HttpRouter, HttpServer, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { bearerToken } from "@platform/auth"
import {
  type ApplicationTokenResponse,
  IamApplicationClient,
  type IamApplicationClientOptions,
  type IamApplicationFailure
} from "@platform/iam-app-api"
import { Context, Effect, Layer, Schema } from "effect"
import { createServer } from "node:http"

/**
 * An application server in the manner of spec 3's services (POST /auth/slt, POST /auth/refresh, GET /auth/status,
 * POST /auth/logout), which knows IAM only through `@platform/iam-app-api`'s exported client.
 */

const json = (body: unknown, status = 200) => HttpServerResponse.unsafeJson(body, { status, headers: { "cache-control": "no-store" } })

const sessionOf = (tokens: ApplicationTokenResponse) => ({
  access_token: tokens.access_token,
  refresh_token: tokens.refresh_token,
  subject: { uuid: tokens.sub, kind: tokens.subject_kind, id: tokens.username },
  org_ids: tokens.org_ids
})

/** IAM's refusal is the caller's 401; IAM out of reach is this application's 503. */
const answerFailure = (error: IamApplicationFailure) =>
  Effect.succeed(error._tag === "IamUnavailable" ? json({ error: "iam_unavailable" }, 503) : json({ error: error.error }, 401))

const bodyField = <K extends string>(name: K) =>
  Effect.orElseFail(
    HttpServerRequest.schemaBodyJson(Schema.Struct({ [name]: Schema.String } as { [P in K]: typeof Schema.String })),
    () => json({ error: `send {"${name}": "…"}` }, 400)
  )

const bearer = Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
  const token = bearerToken(request.headers["authorization"])
  return token === undefined ? Effect.fail(json({ authenticated: false }, 401)) : Effect.succeed(token)
})

const routes = HttpRouter.empty.pipe(
  HttpRouter.post(
    "/auth/slt",
    Effect.gen(function*() {
      const { slt } = yield* bodyField("slt")
      return json(sessionOf(yield* (yield* IamApplicationClient).exchange(slt)))
    })
  ),
  HttpRouter.post(
    "/auth/refresh",
    Effect.gen(function*() {
      const { refresh_token } = yield* bodyField("refresh_token")
      return json(sessionOf(yield* (yield* IamApplicationClient).refresh(refresh_token)))
    })
  ),
  HttpRouter.get(
    "/auth/status",
    Effect.gen(function*() {
      const introspection = yield* (yield* IamApplicationClient).introspect(yield* bearer)
      return introspection.active
        ? json({ authenticated: true, subject: { uuid: introspection.sub, kind: introspection.subject_kind }, org_ids: introspection.org_ids })
        : json({ authenticated: false })
    })
  ),
  HttpRouter.post(
    "/auth/logout",
    Effect.gen(function*() {
      yield* (yield* IamApplicationClient).revoke(yield* bearer)
      return HttpServerResponse.empty({ status: 204 })
    })
  ),
  Effect.catchTags({ OAuthError: answerFailure, IamUnavailable: answerFailure }),
  // The 400 and 401 answers above travel in the error channel.
  Effect.catchIf(HttpServerResponse.isServerResponse, Effect.succeed)
)

/** Where the example application listens. */
export class ExampleApplicationUrl extends Context.Tag("test/ExampleApplicationUrl")<ExampleApplicationUrl, string>() {}

/** The application, served on a free port, calling IAM as the application `options` names. */
export const exampleApplication = (options: IamApplicationClientOptions) =>
  Layer.merge(
    HttpServer.serve(routes).pipe(Layer.provide(IamApplicationClient.layer(options))),
    Layer.effect(
      ExampleApplicationUrl,
      Effect.map(HttpServer.HttpServer, (server) =>
        server.address._tag === "TcpAddress" ? `http://127.0.0.1:${server.address.port}` : "unix")
    )
  ).pipe(Layer.provide(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" })))
