import {
  HttpApiBuilder,
  HttpApiError,
  HttpApiMiddleware,
  HttpApiSchema,
  type HttpApiEndpoint,
  HttpServerRequest,
  HttpServerResponse,
  UrlParams
} from "@effect/platform"
import { Chunk, Context, Effect, Either, Layer, Option, ParseResult, Schema } from "effect"

/** One endpoint compiled to a function of the request: the route's own work and nothing else. */
export interface CompiledEndpoint {
  /** Its group's services: the fiber that runs it must have them (with the runtime's over them). */
  readonly context: Context.Context<never>
  readonly run: (
    request: HttpServerRequest.HttpServerRequest,
    params: Readonly<Record<string, string>>,
    search: Readonly<Record<string, string | Array<string>>>
  ) => Effect.Effect<HttpServerResponse.HttpServerResponse, unknown>
}

/**
 * The endpoints the service's groups compiled as they were built, by `METHOD path`. serveHttpApi
 * provides a fresh one to the handlers and answers these routes without HttpApiBuilder's pipeline.
 */
export class CompiledEndpoints extends Context.Tag("@platform/service/CompiledEndpoints")<
  CompiledEndpoints,
  Map<string, CompiledEndpoint>
>() {
  static readonly layer = Layer.sync(CompiledEndpoints, () => new Map<string, CompiledEndpoint>())
}

type AnySchema = Schema.Schema<unknown, unknown, never>

/** A schema's synchronous decoder; a schema that needs effects (none of ours so far) takes Effect's. */
const decoderOf = (schema: AnySchema) => {
  const sync = ParseResult.decodeUnknownEither(schema)
  const effectful = ParseResult.decodeUnknown(schema)
  return (input: unknown): Effect.Effect<unknown, ParseResult.ParseError> => {
    const decoded = sync(input)
    return Either.isRight(decoded) ? Effect.succeed(decoded.right) : Effect.mapError(effectful(input), (issue) => new ParseResult.ParseError({ issue }))
  }
}

/** The body as HttpApiBuilder reads it for a payload schema (a GET's payload is its query). */
const payloadOf = (request: HttpServerRequest.HttpServerRequest): Effect.Effect<unknown> => {
  const contentType = request.headers["content-type"]?.toLowerCase().trim() ?? "application/json"
  if (contentType.includes("application/json")) return Effect.orDie(request.json)
  if (contentType.includes("x-www-form-urlencoded")) return Effect.map(Effect.orDie(request.urlParamsBody), UrlParams.toRecord)
  if (contentType.startsWith("text/")) return Effect.orDie(request.text)
  return Effect.map(Effect.orDie(request.arrayBuffer), (buffer) => new Uint8Array(buffer))
}

interface SuccessMember {
  readonly is: (value: unknown) => boolean
  readonly encode: (value: unknown) => Either.Either<unknown, ParseResult.ParseIssue>
  readonly respond: (encoded: unknown) => HttpServerResponse.HttpServerResponse
}

const successMember = (schema: AnySchema): SuccessMember => {
  const status = HttpApiSchema.getStatusSuccess(schema)
  const encoding = HttpApiSchema.getEncoding(schema.ast)
  const options = { status, contentType: encoding.contentType }
  const respond = HttpApiSchema.isVoid(schema.ast)
    ? () => HttpServerResponse.empty({ status })
    : encoding.kind === "Json"
    ? (encoded: unknown) => HttpServerResponse.unsafeJson(encoded, options)
    : encoding.kind === "Text"
    ? (encoded: unknown) => HttpServerResponse.text(encoded as string, options)
    : encoding.kind === "Uint8Array"
    ? (encoded: unknown) => HttpServerResponse.uint8Array(encoded as Uint8Array, options)
    : (encoded: unknown) => HttpServerResponse.urlParams(encoded as UrlParams.Input, options)
  return { is: Schema.is(Schema.typeSchema(schema)), encode: ParseResult.encodeUnknownEither(schema), respond }
}

/** The success value as the response HttpApiBuilder would send: the first success schema it is, encoded. */
const encoderOf = (successSchema: AnySchema) => {
  const schemas = new Set<Schema.Schema.Any>()
  HttpApiSchema.deunionize(schemas, successSchema)
  const members = [...schemas].map((schema) => successMember(schema as AnySchema))
  return (value: unknown): Effect.Effect<HttpServerResponse.HttpServerResponse, ParseResult.ParseError> => {
    if (HttpServerResponse.isServerResponse(value)) return Effect.succeed(value)
    let failure: ParseResult.ParseIssue | undefined
    for (const member of members) {
      if (members.length > 1 && !member.is(value)) continue
      const encoded = member.encode(value)
      if (Either.isRight(encoded)) return Effect.succeed(member.respond(encoded.right))
      failure = encoded.left
    }
    return Effect.fail(new ParseResult.ParseError({ issue: failure ?? new ParseResult.Type(successSchema.ast, value) }))
  }
}

type Middleware = Context.Tag<unknown, unknown> & {
  readonly optional: boolean
  readonly provides?: Context.Tag<unknown, unknown>
  readonly security?: Record<string, never>
}

/** The group's and the endpoint's middleware around the work, as HttpApiBuilder applies them. */
const withMiddleware = (
  tags: ReadonlyArray<Middleware>,
  context: Context.Context<never>,
  work: Effect.Effect<HttpServerResponse.HttpServerResponse, unknown>
): Effect.Effect<HttpServerResponse.HttpServerResponse, unknown> => {
  let wrapped = work
  for (const tag of tags) {
    const service = Context.unsafeGet(context, tag) as Record<string, (credential: unknown) => Effect.Effect<unknown, unknown>>
    let effect: Effect.Effect<unknown, unknown> = service as unknown as Effect.Effect<unknown, unknown>
    if (HttpApiMiddleware.SecurityTypeId in tag) {
      let secured: Effect.Effect<unknown, unknown> | undefined
      for (const [key, security] of Object.entries(tag.security ?? {})) {
        const attempt = Effect.flatMap(HttpApiBuilder.securityDecode(security) as unknown as Effect.Effect<unknown>, service[key]!)
        secured = secured === undefined ? attempt : Effect.catchAll(secured, () => attempt)
      }
      effect = secured ?? Effect.void
    }
    const inner = wrapped
    const provides = tag.provides
    wrapped = tag.optional
      ? Effect.matchEffect(effect, {
        onFailure: () => inner,
        onSuccess: (value) => provides === undefined ? inner : Effect.provideService(inner, provides, value)
      })
      : provides === undefined
      ? Effect.zipRight(effect, inner)
      : Effect.provideServiceEffect(inner, provides, effect)
  }
  return wrapped
}

interface HandlerItem {
  readonly endpoint: HttpApiEndpoint.HttpApiEndpoint.AnyWithProps
  readonly handler: (request: Record<string, unknown>) => Effect.Effect<unknown, unknown, never>
  readonly withFullRequest: boolean
}

/**
 * An endpoint as one function: its middleware, the parts of the request it declares decoded
 * synchronously, its handler, its success encoded by precompiled encoders; run in a fiber that
 * has its group's context. Decoding failures become HttpApiDecodeError as in HttpApiBuilder. Undefined for what
 * is left to HttpApiBuilder's own pipeline (query schemas, multipart bodies).
 */
const compile = (
  item: HandlerItem,
  groupMiddleware: ReadonlySet<unknown>,
  context: Context.Context<never>
): CompiledEndpoint | undefined => {
  const { endpoint } = item
  const payloadSchema = endpoint.payloadSchema as Option.Option<AnySchema>
  const multipart = Option.exists(payloadSchema, ({ ast }) =>
    HttpApiSchema.getMultipart(ast) !== undefined || HttpApiSchema.getMultipartStream(ast) !== undefined)
  if (Option.isSome(endpoint.urlParamsSchema) || multipart) return undefined
  const decodePath = Option.map(endpoint.pathSchema as Option.Option<AnySchema>, decoderOf)
  const decodePayload = item.withFullRequest ? Option.none() : Option.map(payloadSchema, decoderOf)
  const decodeHeaders = Option.map(endpoint.headersSchema as Option.Option<AnySchema>, decoderOf)
  const encode = encoderOf(endpoint.successSchema as AnySchema)
  const tags = [...new Set([...groupMiddleware, ...endpoint.middlewares])] as Array<Middleware>
  const hasBody = endpoint.method !== "GET" && endpoint.method !== "HEAD" && endpoint.method !== "OPTIONS"
  const run: CompiledEndpoint["run"] = (request, params, search) => {
    const input: Record<string, unknown> = { request }
    let decoded: Effect.Effect<unknown, ParseResult.ParseError> = Effect.void
    if (Option.isSome(decodePath)) {
      const decode = decodePath.value
      decoded = Effect.map(decode(params), (path) => (input["path"] = path))
    }
    if (Option.isSome(decodePayload)) {
      const decode = decodePayload.value
      const body = hasBody ? payloadOf(request) : Effect.succeed(search)
      decoded = Effect.zipRight(decoded, Effect.flatMap(body, (payload) => Effect.map(decode(payload), (value) => (input["payload"] = value))))
    }
    if (Option.isSome(decodeHeaders)) {
      const decode = decodeHeaders.value
      decoded = Effect.zipRight(decoded, Effect.map(decode(request.headers), (headers) => (input["headers"] = headers)))
    }
    const handled = Effect.flatMap(Effect.suspend(() => item.handler(input)), encode)
    const work = Effect.catchIf(
      decoded === Effect.void ? handled : Effect.zipRight(decoded, handled),
      ParseResult.isParseError,
      HttpApiError.HttpApiDecodeError.refailParseError
    )
    return withMiddleware(tags, context, work)
  }
  return { context, run }
}

/**
 * `HttpApiBuilder.group` that also compiles the group's endpoints (see compile) when the service
 * is served by serveHttpApi; anywhere else (a test's own server) it is HttpApiBuilder.group.
 */
export const compiledGroup: typeof HttpApiBuilder.group = ((api: never, groupName: never, build: (handlers: never) => unknown) =>
  HttpApiBuilder.group(api, groupName, ((handlers: never) => {
    const result = build(handlers)
    return Effect.gen(function*() {
      const built = (Effect.isEffect(result) ? yield* result : result) as {
        readonly group: { readonly middlewares: ReadonlySet<unknown> }
        readonly handlers: Chunk.Chunk<HandlerItem>
      }
      const registry = yield* Effect.serviceOption(CompiledEndpoints)
      if (Option.isSome(registry)) {
        const context = yield* Effect.context<never>()
        for (const item of built.handlers) {
          const compiled = compile(item, built.group.middlewares, context)
          if (compiled !== undefined) registry.value.set(`${item.endpoint.method} ${item.endpoint.path}`, compiled)
        }
      }
      return built
    })
  }) as never)) as never
