import { layer } from "@effect/vitest"
import { Context, Effect, Layer, type Redacted } from "effect"
import { expect } from "vitest"
import { ApplicationTestServices, endIamSession, mintSlt, registerApplication, signedInMember } from "./support/applications.ts"
import { exampleApplication, ExampleApplicationUrl } from "./support/exampleApplication.ts"
import { IamTest, IamUnderTest } from "./support/IamTest.ts"

const services = ApplicationTestServices

/** The example application, started for this test, as the registered application `appId`. */
const startApplication = (appId: string, secret: Redacted.Redacted<string>, baseUrl?: string) =>
  Effect.flatMap(IamUnderTest, ({ url }) =>
    Effect.map(
      Layer.build(exampleApplication({ baseUrl: baseUrl ?? url, appId, secret })),
      (context) => Context.get(context, ExampleApplicationUrl)
    ))

const call = (url: string, method: "GET" | "POST", path: string, options: { readonly body?: unknown; readonly bearer?: string | undefined } = {}) =>
  Effect.promise(async () => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: {
        ...(options.body === undefined ? {} : { "content-type": "application/json" }),
        ...(options.bearer === undefined ? {} : { authorization: `Bearer ${options.bearer}` })
      },
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) })
    })
    const text = await response.text()
    return { status: response.status, body: (text === "" ? {} : JSON.parse(text)) as Record<string, string> }
  })

layer(IamTest(), { excludeTestServices: true })("an application that knows IAM only through @platform/iam-app-api", (it) => {
  it.effect("signs a person in with an SLT, checks them, refreshes, and signs them out", () =>
    Effect.gen(function*() {
      const registered = yield* registerApplication("example-app")
      const app = yield* startApplication("example-app", registered.secret)
      const member = yield* signedInMember("grace")
      const person = member.identity
      const { slt } = yield* mintSlt("example-app", member)

      const signIn = yield* call(app, "POST", "/auth/slt", { body: { slt } })
      expect(signIn).toMatchObject({ status: 200, body: { subject: { uuid: person.uuid, kind: "carbon", id: person.id }, org_ids: member.orgIds } })
      expect(yield* call(app, "POST", "/auth/slt", { body: { slt } })).toEqual({ status: 401, body: { error: "invalid_grant" } })

      const session = signIn.body
      expect(yield* call(app, "GET", "/auth/status", { bearer: session["access_token"] })).toEqual({
        status: 200,
        body: { authenticated: true, subject: { uuid: person.uuid, kind: "carbon" }, org_ids: member.orgIds }
      })
      const refreshed = yield* call(app, "POST", "/auth/refresh", { body: { refresh_token: session["refresh_token"] } })
      expect(refreshed.status).toBe(200)
      expect(yield* call(app, "GET", "/auth/status", { bearer: refreshed.body["access_token"] })).toMatchObject({ body: { authenticated: true } })

      expect(yield* call(app, "POST", "/auth/logout", { bearer: refreshed.body["access_token"] })).toEqual({ status: 204, body: {} })
      expect(yield* call(app, "GET", "/auth/status", { bearer: refreshed.body["access_token"] })).toEqual({
        status: 200,
        body: { authenticated: false }
      })
      expect(yield* call(app, "POST", "/auth/refresh", { body: { refresh_token: refreshed.body["refresh_token"] } }))
        .toEqual({ status: 401, body: { error: "invalid_grant" } })
    }).pipe(Effect.scoped, Effect.provide(services)))

  it.effect("a person signed out of IAM is signed out of the application; IAM out of reach is the application's 503", () =>
    Effect.gen(function*() {
      const registered = yield* registerApplication("example-app-2")
      const app = yield* startApplication("example-app-2", registered.secret)
      const member = yield* signedInMember("hopper")
      const { pair } = member
      const { slt } = yield* mintSlt("example-app-2", member)
      const session = (yield* call(app, "POST", "/auth/slt", { body: { slt } })).body
      yield* endIamSession(pair.session_id)
      expect(yield* call(app, "GET", "/auth/status", { bearer: session["access_token"] })).toEqual({ status: 200, body: { authenticated: false } })

      const cutOff = yield* startApplication("example-app-2", registered.secret, "http://127.0.0.1:1")
      expect(yield* call(cutOff, "GET", "/auth/status", { bearer: session["access_token"] })).toEqual({
        status: 503,
        body: { error: "iam_unavailable" }
      })
    }).pipe(Effect.scoped, Effect.provide(services)))
})
