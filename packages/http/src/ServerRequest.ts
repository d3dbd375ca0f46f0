import {
  Cookies,
  type Headers,
  HttpIncomingMessage,
  type HttpMethod,
  HttpServerError,
  HttpServerRequest,
  UrlParams
} from "@effect/platform"
import { NodeMultipart, NodeStream } from "@effect/platform-node"
import { Effect, Inspectable, Option, type Stream } from "effect"
import type { IncomingMessage, ServerResponse } from "node:http"

/** The largest body a handler reads itself from the stream (the conventions buffer every other body first). */
const MAX_UNBUFFERED_BODY_BYTES = 10 * 1024 * 1024

/** A body the conventions have already read and checked: handlers decode from it instead of the stream. */
interface BufferedBody {
  readonly bytes: Buffer
  readonly text: string
  readonly json: unknown
}

/**
 * A Node request as an Effect HttpServerRequest, made once per request by the conventions'
 * listener. `source` is the IncomingMessage, where `NodeHttpServerRequest.toIncomingMessage`
 * finds it (the conventions read bodies from it, and so does a streamed-body handler).
 */
export class NodeServerRequest extends Inspectable.Class implements HttpServerRequest.HttpServerRequest {
  readonly [HttpServerRequest.TypeId]: HttpServerRequest.TypeId = HttpServerRequest.TypeId
  readonly [HttpIncomingMessage.TypeId]: HttpIncomingMessage.TypeId = HttpIncomingMessage.TypeId
  private parsedCookies: Record<string, string> | undefined
  private cachedText: Effect.Effect<string, HttpServerError.RequestError> | undefined

  constructor(
    readonly source: IncomingMessage,
    readonly response: ServerResponse,
    readonly url: string = source.url ?? "/",
    private readonly headersOverride?: Headers.Headers,
    private readonly remoteAddressOverride?: string,
    private buffered?: BufferedBody
  ) {
    super()
  }

  /** The JSON of the body the conventions read, if they read one (undefined otherwise, or for a form). */
  get bufferedJson(): unknown {
    return this.buffered?.json
  }

  /** Keeps the body the conventions read (before the request reaches a handler): every reader then uses it. */
  bufferBody(bytes: Buffer, json: unknown): void {
    this.buffered = { bytes, text: bytes.toString("utf8"), json }
  }

  private readonly failure = (cause: unknown): HttpServerError.RequestError => new HttpServerError.RequestError({ request: this, reason: "Decode", cause })

  get originalUrl(): string {
    return this.source.url ?? "/"
  }

  get method(): HttpMethod.HttpMethod {
    return (this.source.method ?? "GET").toUpperCase() as HttpMethod.HttpMethod
  }

  get headers(): Headers.Headers {
    return this.headersOverride ?? (this.source.headers as unknown as Headers.Headers)
  }

  get cookies(): Record<string, string> {
    this.parsedCookies ??= Cookies.parseHeader(this.headers["cookie"] ?? "")
    return this.parsedCookies
  }

  get remoteAddress(): Option.Option<string> {
    return Option.fromNullable(this.remoteAddressOverride ?? this.source.socket.remoteAddress)
  }

  get text(): Effect.Effect<string, HttpServerError.RequestError> {
    if (this.buffered !== undefined) return Effect.succeed(this.buffered.text)
    this.cachedText ??= Effect.runSync(Effect.cached(
      NodeStream.toString(() => this.source, { onFailure: this.failure, maxBytes: MAX_UNBUFFERED_BODY_BYTES })
    ))
    return this.cachedText
  }

  get json(): Effect.Effect<unknown, HttpServerError.RequestError> {
    if (this.buffered !== undefined) return Effect.succeed(this.buffered.json)
    return Effect.flatMap(this.text, (text) =>
      Effect.try({ try: () => (text === "" ? null : JSON.parse(text)) as unknown, catch: this.failure }))
  }

  get urlParamsBody(): Effect.Effect<UrlParams.UrlParams, HttpServerError.RequestError> {
    return Effect.map(this.text, (text) => UrlParams.fromInput(new URLSearchParams(text)))
  }

  get arrayBuffer(): Effect.Effect<ArrayBuffer, HttpServerError.RequestError> {
    if (this.buffered !== undefined) {
      const { bytes } = this.buffered
      return Effect.succeed(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer)
    }
    return Effect.map(
      NodeStream.toUint8Array(() => this.source, { onFailure: this.failure, maxBytes: MAX_UNBUFFERED_BODY_BYTES }),
      (bytes) => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer
    )
  }

  get stream(): Stream.Stream<Uint8Array, HttpServerError.RequestError> {
    return NodeStream.fromReadable<HttpServerError.RequestError, Uint8Array>(() => this.source, this.failure)
  }

  get multipart() {
    return NodeMultipart.persisted(this.source, this.source.headers)
  }

  get multipartStream() {
    return NodeMultipart.stream(this.source, this.source.headers)
  }

  get upgrade(): Effect.Effect<never, HttpServerError.RequestError> {
    return Effect.fail(new HttpServerError.RequestError({ request: this, reason: "Decode", description: "no upgrades here" }))
  }

  modify(options: { readonly url?: string; readonly headers?: Headers.Headers; readonly remoteAddress?: string }) {
    return new NodeServerRequest(
      this.source,
      this.response,
      options.url ?? this.url,
      options.headers ?? this.headersOverride,
      options.remoteAddress ?? this.remoteAddressOverride,
      this.buffered
    )
  }

  override toString(): string {
    return `ServerRequest(${this.method} ${this.url})`
  }

  toJSON(): unknown {
    return { _id: "@effect/platform/HttpServerRequest", method: this.method, url: this.originalUrl }
  }
}
