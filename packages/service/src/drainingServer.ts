import { NOSNIFF, requestIdFrom, ServiceUnavailable } from "@platform/http"
import type { IncomingMessage, Server, ServerResponse } from "node:http"

const refuseWhileDraining = (request: IncomingMessage, response: ServerResponse): void => {
  const requestId = requestIdFrom(request.headers["x-request-id"] as string | undefined)
  const body = Buffer.from(JSON.stringify({
    error: {
      code: ServiceUnavailable.code,
      message: "This server is not taking requests (it is shutting down); send the request again on a new connection.",
      details: { request_id: requestId }
    }
  }))
  response.writeHead(ServiceUnavailable.status, {
    ...NOSNIFF,
    "content-type": "application/json",
    "content-length": body.length,
    "cache-control": "no-store",
    "x-request-id": requestId,
    connection: "close"
  })
  // The body may not have been read: close once the answer is out instead of reading the rest.
  response.end(body)
}

export interface Draining {
  /** Shutdown has begun: answers in flight that have not started go out with `Connection: close`. */
  readonly begin: () => void
}

/**
 * Makes a server's shutdown clean for keep-alive clients. Once the app's request handler is gone
 * (the Effect server removes it when its scope closes, before the socket server closes), a request
 * arriving on a connection that is still open would get no answer until the drain deadline, or be
 * reset: it is answered 503 `service_unavailable` with `Connection: close` instead, so the client
 * retries on a new connection, elsewhere. Answers still in flight say `Connection: close` too, so
 * no client sends another request on a connection about to close.
 */
export const drainingServer = (server: Server): Draining => {
  let draining = false
  const inFlight = new Set<ServerResponse>()
  const emit = server.emit
  server.emit = function(this: Server, event: string | symbol, ...args: Array<unknown>): boolean {
    if (event === "request") {
      const request = args[0] as IncomingMessage
      const response = args[1] as ServerResponse
      if (draining || this.listenerCount("request") === 0) {
        refuseWhileDraining(request, response)
        return true
      }
      inFlight.add(response)
      response.once("close", () => inFlight.delete(response))
    }
    return Reflect.apply(emit, this, [event, ...args]) as boolean
  }
  return {
    begin: () => {
      draining = true
      for (const response of inFlight) if (!response.headersSent) response.setHeader("connection", "close")
    }
  }
}
