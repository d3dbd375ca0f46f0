import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup, type HttpRouter } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { expect, it } from "@effect/vitest"
import { Clock, Context, Duration, Effect, Layer, Schema, TestClock } from "effect"
import {
  answerWith,
  type AnswerFreshness,
  conventions,
  keepAnswerUntil,
  KeepsAnswers,
  type RequestListener,
  setCookie
} from "../src/index.ts"
import { listenOnRandomPort } from "./TestApi.ts"

const Question = Schema.Struct({ question: Schema.String })
const Answer = Schema.Struct({ answer: Schema.String, run: Schema.Number })

class KeepApi extends HttpApi.make("keep").add(
  HttpApiGroup.make("answers")
    .add(
      HttpApiEndpoint.post("answer", "/v1/answers")
        .setPayload(Question)
        .addSuccess(Answer)
        .annotate(KeepsAnswers, { channel: "answers", capacity: 2 })
    )
    .add(HttpApiEndpoint.post("unkept", "/v1/unkept").setPayload(Question).addSuccess(Answer))
) {}

class Answering extends Context.Tag("test/Answering")<Answering, RequestListener>() {}

/** What the fake freshness and the handlers share: the channel's change count, whether the fence can tell, counters. */
interface World {
  generation: number
  fenceKnows: boolean
  fences: number
  runs: number
}

/**
 * The answers API over real HTTP with the conventions' listener, on the test clock. The handler keeps its answer
 * for a second, except: "never" keeps nothing, "cookie" sets a cookie, "changing" sees a change committed while
 * it answers. `idempotency-key` makes the fake `around` take the request (as idempotentRequests does).
 */
const serve = (world: World) =>
  Effect.gen(function*() {
    const freshness: AnswerFreshness = {
      generation: () => world.generation,
      fence: (done) => {
        world.fences++
        // As the change listener does: a fence that cannot tell counts as a report that may have been lost.
        if (!world.fenceKnows) world.generation++
        setImmediate(() => done(world.fenceKnows))
      }
    }
    const AnswersLive = HttpApiBuilder.group(KeepApi, "answers", (handlers) =>
      handlers
        .handle("answer", ({ payload }) =>
          Effect.gen(function*() {
            const run = ++world.runs
            if (payload.question === "changing") world.generation++
            if (payload.question === "cookie") yield* setCookie({ production: false }, "sa_x", "y", "1 hour")
            if (payload.question !== "never") yield* keepAnswerUntil((yield* Clock.currentTimeMillis) + 1_000)
            return { answer: payload.question, run }
          }))
        .handle("unkept", ({ payload }) =>
          Effect.gen(function*() {
            yield* keepAnswerUntil((yield* Clock.currentTimeMillis) + 1_000)
            return { answer: payload.question, run: ++world.runs }
          })))
    const Listener = Layer.effect(
      Answering,
      Effect.gen(function*() {
        const router = yield* HttpApiBuilder.Router.router
        return conventions({
          api: KeepApi,
          answerFreshness: (channel) => channel === "answers" ? freshness : undefined,
          around: (request, handled) => request.headers["idempotency-key"] === undefined ? handled : Effect.map(handled, (response) => response)
        })(answerWith(router), yield* Effect.runtime<HttpRouter.HttpRouter.DefaultServices>())
      })
    ).pipe(
      Layer.provide(HttpApiBuilder.api(KeepApi).pipe(Layer.provide(AnswersLive))),
      Layer.provide([HttpApiBuilder.Router.Live, NodeHttpServer.layerContext])
    )
    const url = yield* listenOnRandomPort(Context.get(yield* Layer.build(Listener), Answering))
    return (question: string, headers: Record<string, string> = {}, path = "/v1/answers") =>
      Effect.promise(async () => {
        const response = await fetch(`${url}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: "Basic YXBwOnNlY3JldA==", ...headers },
          body: JSON.stringify({ question })
        })
        return {
          status: response.status,
          body: (await response.json()) as { answer: string; run: number },
          requestId: response.headers.get("x-request-id"),
          cacheControl: response.headers.get("cache-control")
        }
      })
  })

const newWorld = (): World => ({ generation: 0, fenceKnows: true, fences: 0, runs: 0 })

it.scoped("the same credentials and body get the kept answer, with a request id of their own, after a fence", () =>
  Effect.gen(function*() {
    const world = newWorld()
    const ask = yield* serve(world)
    const first = yield* ask("what")
    const second = yield* ask("what")
    expect(first.body).toEqual({ answer: "what", run: 1 })
    expect(second.body).toEqual(first.body)
    expect(second.status).toBe(200)
    expect(second.requestId).not.toBe(first.requestId)
    expect(world.runs).toBe(1)
    expect(world.fences).toBe(2)
    // Another body or other credentials are other answers.
    expect((yield* ask("other")).body.run).toBe(2)
    expect((yield* ask("what", { authorization: "Basic b3RoZXI6c2VjcmV0" })).body.run).toBe(3)
    // The body checks read the Content-Type as well: another one is another answer.
    expect((yield* ask("what", { "content-type": "application/json; charset=utf-8" })).body.run).toBe(4)
    // A route that does not keep answers asks its handler every time, whatever the handler says.
    yield* ask("what", {}, "/v1/unkept")
    expect((yield* ask("what", {}, "/v1/unkept")).body.run).toBe(6)
  }))

it.scoped("a change counted on the channel, the answer's deadline, or a fence that cannot tell: the handler answers again", () =>
  Effect.gen(function*() {
    const world = newWorld()
    const ask = yield* serve(world)
    yield* ask("what")
    world.generation++
    expect((yield* ask("what")).body.run).toBe(2)
    expect((yield* ask("what")).body.run).toBe(2)
    yield* TestClock.adjust(Duration.millis(999))
    expect((yield* ask("what")).body.run).toBe(2)
    yield* TestClock.adjust(Duration.millis(1))
    expect((yield* ask("what")).body.run).toBe(3)
    world.fenceKnows = false
    expect((yield* ask("what")).body.run).toBe(4)
    expect((yield* ask("what")).body.run).toBe(5)
    world.fenceKnows = true
    // What was answered while the fence could not tell was not kept, nor is what was kept before.
    expect((yield* ask("what")).body.run).toBe(6)
    expect((yield* ask("what")).body.run).toBe(6)
  }))

it.scoped("an answer given while a change was counted, one that sets a cookie, or one its handler did not keep is never replayed", () =>
  Effect.gen(function*() {
    const world = newWorld()
    const ask = yield* serve(world)
    for (const question of ["changing", "cookie", "never"]) {
      const first = yield* ask(question)
      expect((yield* ask(question)).body.run).toBe(first.body.run + 1)
    }
  }))

it.scoped("a request `around` takes (an idempotent retry) is neither answered from nor kept in the store", () =>
  Effect.gen(function*() {
    const world = newWorld()
    const ask = yield* serve(world)
    yield* ask("what", { "idempotency-key": "k1" })
    expect((yield* ask("what")).body.run).toBe(2)
    expect((yield* ask("what", { "idempotency-key": "k2" })).body.run).toBe(3)
    expect((yield* ask("what")).body.run).toBe(2)
  }))

it.scoped("at capacity the oldest kept answer makes room", () =>
  Effect.gen(function*() {
    const world = newWorld()
    const ask = yield* serve(world)
    yield* ask("a")
    yield* ask("b")
    yield* ask("c")
    expect((yield* ask("c")).body.run).toBe(3)
    expect((yield* ask("b")).body.run).toBe(2)
    expect((yield* ask("a")).body.run).toBe(4)
  }))
