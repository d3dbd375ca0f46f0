import { expect, layer } from "@effect/vitest"
import { packTarGz } from "@platform/sandbox"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { historyOf, insertApp, insertInstalls } from "./support/catalogue.ts"
import { newCarbon, registryClient, RegistryTest, RegistryUnderTest, signedIn } from "./support/RegistryTest.ts"

const get = (path: string) =>
  Effect.flatMap(RegistryUnderTest, ({ url }) => Effect.promise(() => fetch(`${url}${path}`)))
const json = (response: Response) => Effect.promise(() => response.json() as Promise<any>)

const ACCEPTED = ["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64", "windows-x64"]

layer(RegistryTest({ sandbox: { mode: "off", commandSeconds: 10 } }), { excludeTestServices: true })(
  "targets, and a registry without a runner",
  (it) => {
    it.effect("GET /v1/targets counts accounts per target, reach once per account, without a token", () =>
      Effect.gen(function*() {
        const [ada, bob, cy, dee] = Array.from({ length: 4 }, () => randomUUID())
        yield* insertInstalls([
          { target: "linux-x64", account: ada! },
          { target: "linux-x64", account: ada! },
          { target: "linux-x64", account: bob! },
          { target: "darwin-arm64", account: ada! },
          { target: "darwin-arm64", account: cy! },
          { target: "windows-x64", account: dee! },
          { target: "linux-x64", account: null }
        ])
        const everything = yield* get("/v1/targets")
        expect(everything.status).toBe(200)
        expect(yield* json(everything)).toEqual({
          items: [
            { target: "linux-x64", population: 2, runner_available: false },
            { target: "linux-arm64", population: 0, runner_available: false },
            { target: "darwin-x64", population: 0, runner_available: false },
            { target: "darwin-arm64", population: 2, runner_available: false },
            { target: "windows-x64", population: 1, runner_available: false }
          ],
          total_population: 4,
          total_reach: 4,
          source: "registered_accounts"
        })
        const client = yield* registryClient()
        const some = yield* client.targets.list({ urlParams: { targets: "darwin-arm64, linux-x64,darwin-arm64" } })
        expect(some).toEqual({
          items: [
            { target: "darwin-arm64", population: 2, runner_available: false },
            { target: "linux-x64", population: 2, runner_available: false }
          ],
          total_population: 4,
          total_reach: 3,
          source: "registered_accounts"
        })
        const none = yield* client.targets.list({ urlParams: { targets: "linux-arm64" } })
        expect(none).toMatchObject({ items: [{ target: "linux-arm64", population: 0 }], total_reach: 0, total_population: 4 })
      }))

    it.effect("an unknown target in the list is 400 unknown_target naming each and listing the accepted ones", () =>
      Effect.gen(function*() {
        const response = yield* get("/v1/targets?targets=linux-x64,beos-x86,amiga")
        expect(response.status).toBe(400)
        expect(yield* json(response)).toEqual({
          error: {
            code: "unknown_target",
            message: expect.stringContaining("\"beos-x86\", \"amiga\""),
            hint: expect.any(String),
            details: { parameter: "targets", received: ["beos-x86", "amiga"], accepted: ACCEPTED }
          }
        })
        const empty = yield* json(yield* get("/v1/targets?targets="))
        expect(empty.error).toMatchObject({ code: "unknown_target", details: { received: [""], accepted: ACCEPTED } })
      }))

    it.effect("with the sandbox off an upload is 503 runner_unavailable, before anything is unpacked", () =>
      Effect.gen(function*() {
        const author = yield* signedIn(newCarbon("Ada"))
        const appId = yield* insertApp([author.identity])
        const archive = yield* Effect.promise(() => packTarGz([{ name: "app.json", content: "{\"command\": \"tool\"}" }]))
        const response = yield* Effect.flatMap(RegistryUnderTest, ({ url }) =>
          Effect.promise(() =>
            fetch(`${url}/v1/apps/${appId}/packages/linux-x64`, {
              method: "POST",
              headers: { ...author.headers, "content-type": "application/gzip" },
              body: archive
            })
          ))
        expect(response.status).toBe(503)
        expect((yield* json(response)).error).toEqual({
          code: "runner_unavailable",
          message: "No runner can validate linux-x64 packages here now.",
          hint: expect.any(String),
          details: { target: "linux-x64", runner_targets: [], request_id: expect.stringMatching(/^req_/) }
        })
        expect(yield* historyOf(appId)).toEqual([])
      }))
  }
)
