import { describe, expect, layer } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { Validator } from "@seriousme/openapi-schema-validator"
import { Effect, Layer } from "effect"
import { readFile } from "node:fs/promises"
import { insertApp, insertRelease } from "./support/searchFixtures.ts"
import { RegistryTest, RegistryUnderTest } from "./support/RegistryTest.ts"

const get = (path: string, headers: Record<string, string> = {}) =>
  Effect.flatMap(RegistryUnderTest, ({ url }) =>
    Effect.promise(async () => {
      const response = await fetch(`${url}${path}`, { headers })
      return { response, body: await response.json() as any }
    }))

const Catalogue = Layer.effectDiscard(Effect.all([
  insertApp({ app_id: "weather", name: "Weather", rating: 4.5, installs: 1200, description: "Forecasts.", tags: ["forecast"] }),
  insertApp({ app_id: "weather-draft", name: "Weather Draft", status: "draft" }),
  insertApp({ app_id: "chess", name: "Chess Club", rating: 3 })
]).pipe(Effect.zipRight(insertRelease({ app_id: "weather", version: "1.0.0", targets: ["linux-x64"], channel: "production" }))))

/** The SDK's own client over real HTTP; closed after `use`. */
const mcpClient = <A>(use: (client: Client) => Promise<A>) =>
  Effect.flatMap(RegistryUnderTest, ({ url }) =>
    Effect.promise(async () => {
      const client = new Client({ name: "registry-test", version: "1.0.0" })
      await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)))
      try {
        return await use(client)
      } finally {
        await client.close()
      }
    }))

const textOf = (result: Record<string, unknown>) => JSON.parse((result["content"] as Array<{ text: string }>)[0]!.text)

layer(Catalogue.pipe(Layer.provideMerge(RegistryTest())), { excludeTestServices: true })(
  "discovery for agents",
  (it) => {
    describe("GET /v1/capabilities", () => {
      it.effect("reports API versions, authentication, targets and features, satisfied without require", () =>
        Effect.gen(function*() {
          const { body, response } = yield* get("/v1/capabilities")
          expect(response.status).toBe(200)
          expect(response.headers.get("apps-version")).toBe("2026-10-09")
          expect(body).toMatchObject({
            service: "registry",
            service_version: "0.1.2",
            api_versions: { header: "Apps-Version", current: "2026-10-09", supported: ["2026-10-09"] },
            auth_methods: ["anonymous", "account_token", "developer_token"],
            targets: ["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64", "windows-x64"],
            delivery_modes: ["poll"],
            event_types: ["release.withdrawn"],
            features: { streaming: false, subscriptions: false, webhooks: false, search: true, mcp: true, openapi: true, agent_card: true },
            limits: { reads_per_minute: 600, writes_per_minute: 120, search_limit_max: 100 },
            links: { mcp: expect.stringMatching(/\/mcp$/), openapi: expect.stringMatching(/\/v1\/openapi\.json$/) },
            requirements: { satisfied: true, required: [] }
          })
        }))

      it.effect("every required capability offered: 200 with requirements.satisfied and what was required", () =>
        Effect.gen(function*() {
          const require = "search,mcp, idempotency,version:2026-10-09,auth:account_token,target:linux-arm64,event:release.withdrawn,delivery:poll,search"
          const { body, response } = yield* get(`/v1/capabilities?require=${encodeURIComponent(require)}`)
          expect(response.status).toBe(200)
          expect(body.requirements).toEqual({
            satisfied: true,
            required: ["search", "mcp", "idempotency", "version:2026-10-09", "auth:account_token", "target:linux-arm64", "event:release.withdrawn", "delivery:poll"]
          })
        }))

      it.effect("a capability not offered: 422 requirements_not_met with error.details.missing", () =>
        Effect.gen(function*() {
          const require = "search,streaming,webhooks,version:1999-01-01,target:amiga,auth:password,delivery:webhook,event:app.deleted,flying"
          const { body, response } = yield* get(`/v1/capabilities?require=${encodeURIComponent(require)}`)
          expect(response.status).toBe(422)
          expect(body).toEqual({
            error: {
              code: "requirements_not_met",
              message: expect.stringContaining("streaming"),
              hint: expect.any(String),
              details: {
                missing: ["streaming", "webhooks", "version:1999-01-01", "target:amiga", "auth:password", "delivery:webhook", "event:app.deleted", "flying"]
              }
            }
          })
        }))
    })

    describe("OpenAPI and the agent card", () => {
      it.effect("/v1/openapi.json is /openapi.json, a valid OpenAPI 3.1 document", () =>
        Effect.gen(function*() {
          const root = yield* get("/openapi.json")
          const versioned = yield* get("/v1/openapi.json")
          expect(versioned.response.status).toBe(200)
          expect(versioned.response.headers.get("content-type")).toContain("application/json")
          expect(versioned.body).toEqual(root.body)
          expect(root.body.openapi).toBe("3.1.0")
          const validator = new Validator()
          const result = yield* Effect.promise(() => validator.validate(root.body))
          expect(result.errors ?? []).toEqual([])
          expect(validator.version).toBe("3.1")
        }))

      it.effect("/openapi.json is the reviewed contract (test/snapshots/openapi.json): a change to it is deliberate", () =>
        Effect.gen(function*() {
          // To accept a deliberate change: npm run openapi:snapshot -w apps/registry, and review the diff.
          const reviewed = yield* Effect.promise(() => readFile(new URL("./snapshots/openapi.json", import.meta.url), "utf8"))
          expect((yield* get("/openapi.json")).body).toEqual(JSON.parse(reviewed))
        }))

      it.effect("the agent card, the same at both well-known paths, names the REST API and the MCP endpoint", () =>
        Effect.gen(function*() {
          const { url } = yield* RegistryUnderTest
          const agent = yield* get("/.well-known/agent.json")
          const agentCard = yield* get("/.well-known/agent-card.json")
          expect(agent.response.status).toBe(200)
          expect(agentCard.response.status).toBe(200)
          expect(agentCard.body).toEqual(agent.body)
          expect(agent.body).toMatchObject({
            name: "Application registry",
            url,
            version: "0.1.2",
            capabilities: { streaming: false, pushNotifications: false },
            additionalInterfaces: [{ url: `${url}/v1`, transport: "HTTP+JSON" }, { url: `${url}/mcp`, transport: "MCP" }],
            interfaces: {
              rest: { url: `${url}/v1`, openapi: `${url}/openapi.json`, version_header: "Apps-Version" },
              mcp: { url: `${url}/mcp`, transport: "streamable-http", stateless: true, tools: ["search_apps", "get_app", "resolve_release"] }
            }
          })
          expect(agent.body.skills.map((skill: { id: string }) => skill.id)).toEqual(["search_apps", "get_app", "resolve_release"])
        }))
    })

    describe("MCP at /mcp", () => {
      it.effect("the SDK's client lists the tools, searches, reads an app and resolves a release", () =>
        Effect.gen(function*() {
          const answers = yield* mcpClient(async (client) => ({
            tools: (await client.listTools()).tools,
            search: await client.callTool({ name: "search_apps", arguments: { q: "weathr", limit: 5 } }),
            app: await client.callTool({ name: "get_app", arguments: { app_id: "weather" } }),
            draft: await client.callTool({ name: "get_app", arguments: { app_id: "weather-draft" } }),
            resolved: await client.callTool({ name: "resolve_release", arguments: { app_id: "weather", target: "linux-x64" } }),
            unresolved: await client.callTool({ name: "resolve_release", arguments: { app_id: "chess", target: "linux-x64" } }),
            badSort: await client.callTool({ name: "search_apps", arguments: { sort: "popular" } })
          }))
          expect(answers.tools.map((tool) => tool.name)).toEqual(["search_apps", "get_app", "resolve_release"])
          expect(answers.tools.every((tool) => tool.annotations?.readOnlyHint === true)).toBe(true)
          expect(answers.tools.find((tool) => tool.name === "resolve_release")?.inputSchema.required).toEqual(["app_id", "target"])

          expect(answers.search.isError).toBeFalsy()
          expect(answers.search.structuredContent).toMatchObject({ total: 1, limit: 5, offset: 0, next_offset: null, sort: "relevance" })
          expect(textOf(answers.search).items.map((app: { app_id: string }) => app.app_id)).toEqual(["weather"])

          expect(answers.app.structuredContent).toMatchObject({
            app_id: "weather",
            name: "Weather",
            rating: 4.5,
            installs: 1200,
            status: "published",
            access: null,
            created_at: "2026-01-01T00:00:00.000Z"
          })
          // A draft is no more visible over MCP than anonymously over REST.
          expect(answers.draft.isError).toBe(true)
          expect(textOf(answers.draft)).toEqual({
            error: { code: "app_not_found", message: "No app weather-draft that you can see.", hint: expect.any(String), details: null }
          })

          // Resolved as GET /v1/apps/weather/resolve answers, its manifest signed.
          expect(answers.resolved.isError).toBeFalsy()
          expect(answers.resolved.structuredContent).toMatchObject({
            app_id: "weather",
            release: { version: "1.0.0", channel: "production" },
            package: { target: "linux-x64" },
            signature: { algorithm: "ed25519" },
            withdrawn: []
          })
          // Chess has no release: refused with the API's envelope.
          expect(answers.unresolved.isError).toBe(true)
          expect(textOf(answers.unresolved).error.code).toBe("release_not_found")
          // The SDK checks arguments against the tool's input schema first.
          expect(answers.badSort.isError).toBe(true)
        }))

      it.effect("over the wire: the conventions' headers on MCP answers; GET is 405 (stateless, no stream)", () =>
        Effect.gen(function*() {
          const { url } = yield* RegistryUnderTest
          const response = yield* Effect.promise(() =>
            fetch(`${url}/mcp`, {
              method: "POST",
              headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
              body: JSON.stringify({
                jsonrpc: "2.0",
                id: 1,
                method: "initialize",
                params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "curl", version: "1" } }
              })
            })
          )
          expect(response.status).toBe(200)
          expect(response.headers.get("content-type")).toContain("application/json")
          expect(response.headers.get("apps-version")).toBe("2026-10-09")
          expect(response.headers.get("ratelimit-policy")).toBe("120;w=60")
          expect(response.headers.get("mcp-session-id")).toBeNull()
          const body = yield* Effect.promise(() => response.json() as Promise<any>)
          expect(body).toMatchObject({ jsonrpc: "2.0", id: 1, result: { serverInfo: { name: "registry", version: "0.1.2" }, capabilities: { tools: {} } } })

          const stream = yield* get("/mcp", { accept: "text/event-stream" })
          expect(stream.response.status).toBe(405)
          expect(stream.response.headers.get("allow")).toBe("POST")
          expect(stream.body.error.code).toBe("method_not_allowed")
        }))
    })
  }
)
