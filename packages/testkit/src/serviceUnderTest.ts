import { FetchHttpClient, type HttpApi, HttpApiClient, type HttpApiGroup, HttpClient, HttpClientRequest } from "@effect/platform"
import { Context, Effect, Layer, Logger, LogLevel } from "effect"
import { freePort } from "./freePort.ts"

/** Where the service under test listens: `http://127.0.0.1:<port>`. */
export class ServiceUrl extends Context.Tag("@platform/testkit/ServiceUrl")<ServiceUrl, string>() {}

/**
 * A service started over real HTTP for one test file: `serve` gets a free port and returns the
 * service's layers (its server on that port, with whatever fakes and database the test chose).
 * Only warnings and errors are logged. A server keeps real time: use it with
 * `layer(…, { excludeTestServices: true })`; time travel belongs to service-level tests.
 */
export const serviceUnderTest = <A, E, R>(
  serve: (port: number) => Layer.Layer<A, E, R>
): Layer.Layer<A | ServiceUrl, E, R> =>
  Layer.unwrapEffect(
    Effect.map(
      Effect.promise(freePort),
      (port) => Layer.merge(serve(port), Layer.succeed(ServiceUrl, `http://127.0.0.1:${port}`))
    )
  ).pipe(Layer.provide(Logger.minimumLogLevel(LogLevel.Warning)))

/**
 * A client of the service under test made from its HttpApi definition: requests and answers are
 * the contract's schemas and each endpoint's failures its declared errors, so a contract change
 * breaks the tests that use it at compile time.
 */
export const typedClient = <ApiId extends string, Groups extends HttpApiGroup.HttpApiGroup.Any, ApiE, ApiR>(
  api: HttpApi.HttpApi<ApiId, Groups, ApiE, ApiR>,
  options: { readonly headers?: Readonly<Record<string, string>> } = {}
) =>
  Effect.flatMap(ServiceUrl, (baseUrl) =>
    HttpApiClient.make(api, {
      baseUrl,
      transformClient: HttpClient.mapRequest(HttpClientRequest.setHeaders(options.headers ?? {}))
    })).pipe(Effect.provide(FetchHttpClient.layer))
