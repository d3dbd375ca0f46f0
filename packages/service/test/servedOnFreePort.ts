import { freePort } from "@platform/testkit"
import { Context, Effect, Layer, Logger, LogLevel } from "effect"

/** Where the service under test listens: `http://127.0.0.1:<port>`. */
export class BaseUrl extends Context.Tag("test/BaseUrl")<BaseUrl, string>() {}

/** A service layer built for a free port, with its BaseUrl; only warnings are logged. */
export const servedOnFreePort = <E, R>(serve: (port: number) => Layer.Layer<never, E, R>) =>
  Layer.unwrapEffect(
    Effect.map(Effect.promise(freePort), (port) => Layer.merge(serve(port), Layer.succeed(BaseUrl, `http://127.0.0.1:${port}`)))
  ).pipe(Layer.provide(Logger.minimumLogLevel(LogLevel.Warning)))

/** One request to the service under test, its body read as text. */
export const call = (path: string, init?: RequestInit) =>
  Effect.flatMap(BaseUrl, (url) =>
    Effect.promise(async () => {
      const response = await fetch(`${url}${path}`, init)
      return { status: response.status, headers: response.headers, text: await response.text() }
    }))
