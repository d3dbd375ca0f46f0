import { type HttpServerRequest, HttpServerResponse } from "@effect/platform"
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js"
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"
import { Effect } from "effect"

const webRequestOf = (request: HttpServerRequest.HttpServerRequest) =>
  new Request(new URL(request.url, "http://registry.invalid"), { method: request.method, headers: request.headers })

/**
 * One MCP exchange in stateless mode: a new server and transport for this request (no session id), the body
 * the conventions already read and checked handed over as parsed, and the transport's answer returned as our
 * response, so that the conventions' headers (Apps-Version, RateLimit-*, request id) are on it.
 */
export const answerMcp = (
  request: HttpServerRequest.HttpServerRequest,
  body: unknown,
  makeServer: () => McpServer
): Effect.Effect<HttpServerResponse.HttpServerResponse> =>
  Effect.acquireUseRelease(
    Effect.sync(() => ({
      server: makeServer(),
      // No sessionIdGenerator: stateless mode (the SDK's `sessionIdGenerator: undefined`).
      transport: new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true })
    })),
    ({ server, transport }) =>
      Effect.promise(async () => {
        await server.connect(transport)
        const response = await transport.handleRequest(webRequestOf(request), { parsedBody: body })
        return { status: response.status, contentType: response.headers.get("content-type"), text: await response.text() }
      }),
    ({ server }) => Effect.promise(() => server.close())
  ).pipe(Effect.map(({ contentType, status, text }) =>
    text === ""
      ? HttpServerResponse.empty({ status })
      : HttpServerResponse.text(text, { status, contentType: contentType ?? "application/json" })
  ))
