import type { IncomingMessage, Server, ServerResponse } from "node:http"
import { durationSince, writeRequestLine } from "./RequestLog.ts"
import { type ApiVersioning, isVersioned } from "./ApiVersion.ts"
import { requestIdFrom } from "./RequestId.ts"
import { NOSNIFF } from "./ResponseHeaders.ts"

/** A public document answered from memory, identical for every caller. */
export interface PublicDocument {
  readonly path: string
  /** The document's current JSON text; called per request, so it must be cheap (a cached string). */
  readonly json: () => string
  /** Headers besides the conventions' own, e.g. CORS and Cache-Control. */
  readonly headers: Readonly<Record<string, string>>
}

interface Rendered {
  text: string
  bytes: Buffer
}

/**
 * Serves the given documents straight from the Node request event, before
 * the Effect runtime, with the same conventions the HttpApi routes apply
 * (request id, dated version, Vary, the request log line). Discovery and
 * JWKS are fetched by every client and cache of every app; they are the
 * hottest routes and never vary by caller. Anything unusual — another
 * method, a query string, an unserved version — goes to the full app,
 * which answers it (or refuses it) the usual way.
 */
export const servePublicDocuments = (
  server: Server,
  documents: ReadonlyArray<PublicDocument>,
  versioning: ApiVersioning,
  options: { readonly logRequests: boolean }
): void => {
  const versionHeader = versioning.header.toLowerCase()
  const byPath = new Map(documents.map((document) => [document.path, document]))
  const rendered = new Map<string, Rendered>()

  const bytesOf = (document: PublicDocument): Buffer => {
    const text = document.json()
    const cached = rendered.get(document.path)
    if (cached !== undefined && cached.text === text) return cached.bytes
    const bytes = Buffer.from(text)
    rendered.set(document.path, { text, bytes })
    return bytes
  }

  const answer = (request: IncomingMessage, response: ServerResponse): boolean => {
    if (request.method !== "GET" && request.method !== "HEAD") return false
    const document = byPath.get(request.url ?? "")
    if (document === undefined) return false
    const requested = request.headers[versionHeader]
    if (requested !== undefined && requested !== "" && !versioning.supported.includes(String(requested))) return false
    const started = performance.now()
    const requestId = requestIdFrom(request.headers["x-request-id"] as string | undefined)
    const bytes = bytesOf(document)
    const headers: Record<string, string | number> = {
      ...NOSNIFF,
      ...document.headers,
      "content-type": "application/json",
      "content-length": bytes.length,
      "x-request-id": requestId
    }
    if (isVersioned(versioning, document.path)) {
      headers[versioning.header] = typeof requested === "string" && requested !== "" ? requested : versioning.current
      headers["vary"] = versioning.header
    }
    response.writeHead(200, headers)
    response.end(request.method === "HEAD" ? undefined : bytes)
    if (!options.logRequests) return true
    writeRequestLine({
      method: request.method!,
      route: document.path,
      status: 200,
      duration_ms: durationSince(started),
      request_id: requestId
    })
    return true
  }

  const emit = server.emit
  server.emit = function(this: Server, event: string | symbol, ...args: Array<unknown>): boolean {
    if (event === "request" && answer(args[0] as IncomingMessage, args[1] as ServerResponse)) return true
    return Reflect.apply(emit, this, [event, ...args]) as boolean
  }
}
