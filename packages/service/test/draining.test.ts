import { expect, it } from "@effect/vitest"
import { freePort } from "@platform/testkit"
import { Effect, Exit, Fiber, Layer, Logger, LogLevel, Scope } from "effect"
import { once } from "node:events"
import { createServer, type RequestListener } from "node:http"
import type { AddressInfo } from "node:net"
import { drainingServer } from "../src/drainingServer.ts"
import { exampleServer } from "./ExampleService.ts"
import { RawConnection } from "./rawConnection.ts"

const promise = <A>(run: () => Promise<A>) => Effect.promise(run)
const get = (path: string) => `GET ${path} HTTP/1.1\r\nHost: test\r\nExample-Version: 2026-01-01\r\n\r\n`
/** With `Expect: 100-continue`, so the server says when it has the request (and is waiting for its body). */
const postHead = (bodyLength: number) =>
  `POST /v1/notes HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: ${bodyLength}\r\n` +
  `Expect: 100-continue\r\n\r\n`

it.live("a request on a keep-alive connection across SIGTERM is answered, with Connection: close, long before the drain deadline", () =>
  Effect.gen(function*() {
    const port = yield* promise(freePort)
    const scope = yield* Scope.make()
    yield* Layer.buildWithScope(
      exampleServer({ EXAMPLE_PORT: String(port), EXAMPLE_DRAIN_SECONDS: "60" }).pipe(
        Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))
      ),
      scope
    )
    const busy = yield* promise(() => RawConnection.open(port))
    const idle = yield* promise(() => RawConnection.open(port))
    yield* Effect.addFinalizer(() => Effect.sync(() => [busy, idle].forEach((connection) => connection.destroy())))

    // Both connections are kept alive after a first answer.
    for (const connection of [busy, idle]) {
      connection.send(get("/v1/notes/1"))
      const first = yield* promise(() => connection.nextResponse())
      expect(first?.status).toBe(200)
      expect(first?.headers.get("connection")).toBe("keep-alive")
    }
    // A request under way on one connection (the server has it and waits for its body) when shutdown begins.
    const body = JSON.stringify({ text: "sent across the shutdown" })
    busy.send(postHead(Buffer.byteLength(body)))
    expect((yield* promise(() => busy.nextResponse()))?.status).toBe(100)

    const shutdown = yield* Effect.fork(Scope.close(scope, Exit.void))
    // The server closes idle connections once it has stopped accepting: shutdown has begun.
    yield* promise(() => idle.closed)

    busy.send(body)
    const answered = yield* promise(() => busy.nextResponse())
    expect(answered?.status).toBe(201)
    expect(JSON.parse(answered?.body ?? "null")).toEqual({ id: 1, text: "sent across the shutdown" })
    expect(answered?.headers.get("connection")).toBe("close")
    // The connection ends with that answer, so the shutdown completes without waiting for the deadline.
    yield* promise(() => busy.closed)
    yield* Fiber.join(shutdown)
  }).pipe(Effect.scoped))

it.live("once the app's handler is gone, a request on an open connection gets 503 service_unavailable with Connection: close", () =>
  Effect.gen(function*() {
    const app: RequestListener = (_request, response) => response.end("ok")
    const server = createServer(app)
    const draining = drainingServer(server)
    server.listen(0, "127.0.0.1")
    yield* promise(() => once(server, "listening"))
    yield* Effect.addFinalizer(() => Effect.sync(() => server.closeAllConnections()).pipe(Effect.zipRight(Effect.sync(() => server.close()))))
    const { port } = server.address() as AddressInfo
    const connection = yield* promise(() => RawConnection.open(port))

    connection.send(get("/"))
    const before = yield* promise(() => connection.nextResponse())
    expect(before).toMatchObject({ status: 200, body: "ok" })
    expect(before?.headers.get("connection")).toBe("keep-alive")

    // What the Effect server does when its scope closes, then what nodeServer does.
    server.off("request", app)
    draining.begin()
    connection.send(get("/v1/notes/1"))
    const after = yield* promise(() => connection.nextResponse())
    expect(after?.status).toBe(503)
    expect(after?.headers.get("connection")).toBe("close")
    expect(after?.headers.get("x-content-type-options")).toBe("nosniff")
    expect(JSON.parse(after?.body ?? "null")).toMatchObject({ error: { code: "service_unavailable", details: { request_id: expect.stringMatching(/^req_/) } } })
    yield* promise(() => connection.closed)
  }).pipe(Effect.scoped))
