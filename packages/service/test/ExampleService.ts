import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import type { ApiVersioning } from "@platform/http"
import { ConfigProvider, Effect, Layer, Schema } from "effect"
import { ServiceConfig, serveHttpApi } from "../src/index.ts"

/** A whole service built with the kit: its contract, its handlers, and one call that serves them. */
const Note = Schema.Struct({ id: Schema.Number, text: Schema.String })

export class ExampleApi extends HttpApi.make("example").add(
  HttpApiGroup.make("notes")
    .add(HttpApiEndpoint.post("create", "/v1/notes").setPayload(Schema.Struct({ text: Schema.String })).addSuccess(Note, { status: 201 }))
    .add(HttpApiEndpoint.get("read", "/v1/notes/:id").setPath(Schema.Struct({ id: Schema.NumberFromString })).addSuccess(Note))
) {}

const NotesLive = HttpApiBuilder.group(ExampleApi, "notes", (handlers) =>
  handlers
    .handle("create", ({ payload }) => Effect.succeed({ id: 1, text: payload.text }))
    .handle("read", ({ path }) => Effect.succeed({ id: path.id, text: "hello" })))

export const exampleVersioning: ApiVersioning = {
  header: "Example-Version",
  supported: ["2026-01-01"],
  current: "2026-01-01",
  prefixes: ["/v1", "/openapi.json"]
}

/** The example service as its `main` would serve it, with its settings read from `env` (EXAMPLE_PORT, …). */
export const exampleServer = (env: Record<string, string>) =>
  Layer.unwrapEffect(
    Effect.map(ServiceConfig("EXAMPLE", { defaultPort: 4900 }), (settings) =>
      serveHttpApi({
        name: "example",
        api: ExampleApi,
        handlers: NotesLive,
        versioning: exampleVersioning,
        settings,
        links: [{ href: "https://example.com/guide", label: "Guide" }]
      }))
  ).pipe(Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)), { pathDelim: "_" }))))
