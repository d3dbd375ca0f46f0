import { HttpApp, HttpServerError, HttpServerRequest, type HttpServerResponse } from "@effect/platform"
import { Cause, Context, Effect, FiberRef, Runtime } from "effect"
import type { IncomingMessage, ServerResponse } from "node:http"
import { NodeServerRequest } from "./serverRequest.ts"
import { writeResponse } from "@platform/http"

/** What a handler registered to run on its response (a header, a cookie) before it is sent. */
const withPreResponseHandlers = (
  request: HttpServerRequest.HttpServerRequest,
  response: HttpServerResponse.HttpServerResponse
) =>
  Effect.flatMap(FiberRef.get(HttpApp.currentPreResponseHandlers), (handler) =>
    handler._tag === "None" ? Effect.succeed(response) : handler.value(request, response))

/**
 * Node's `request` listener for an app that answers every request itself (the conventions turn
 * each failure into a response): one fiber per request on a runtime built once, no request
 * scope, span or second router, the answer written in one call where its body is bytes. A
 * client that goes away before its answer interrupts the request's fiber.
 */
export const requestListener = (
  app: HttpApp.Default<never, never>,
  runtime: Runtime.Runtime<never>
): (source: IncomingMessage, node: ServerResponse) => void => {
  const { context, fiberRefs, runtimeFlags } = runtime
  return (source, node) => {
    const request = new NodeServerRequest(source, node)
    const answered = app.pipe(
      Effect.flatMap((response) => withPreResponseHandlers(request, response)),
      Effect.flatMap((response) => writeResponse(node, request.method, response)),
      Effect.catchAllCause((cause) => {
        const end = Effect.sync(() => {
          if (!node.headersSent) node.writeHead(500)
          if (!node.writableEnded) node.end()
        })
        // A client that went away interrupted its request: nothing failed.
        return Cause.isInterruptedOnly(cause)
          ? end
          : Effect.zipRight(Effect.logError("a request failed outside the conventions", cause), end)
      })
    )
    // The request joins the runtime's context as the fiber starts: cheaper than providing it as an effect.
    const fiber = Runtime.runFork(Runtime.make({
      context: Context.add(context, HttpServerRequest.HttpServerRequest, request),
      fiberRefs,
      runtimeFlags
    }))(Effect.uninterruptible(answered))
    node.on("close", () => {
      if (!node.writableEnded) fiber.unsafeInterruptAsFork(HttpServerError.clientAbortFiberId)
    })
  }
}
