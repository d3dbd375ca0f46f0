import { describe, expect, layer } from "@effect/vitest"
import { type PackEntry, packTarGz } from "@platform/sandbox"
import { Effect } from "effect"
import { createHash, randomBytes } from "node:crypto"
import { historyOf, insertApp } from "./support/catalogue.ts"
import { newCarbon, registryClient, RegistryTest, RegistryUnderTest, signedIn } from "./support/RegistryTest.ts"

/** A tiny command-line app in sh answering the three validation commands as `answers` says. */
const appScript = (answers: { help?: string; accounts?: string; login?: string } = {}) => `#!/bin/sh
case "$*" in
  "--help") ${answers.help ?? "echo 'usage: tool [accounts | login status] [--json]'"} ;;
  "accounts --json") ${answers.accounts ?? "echo '[{\"id\": \"c:ada\"}]'"} ;;
  "login status --json") ${answers.login ?? "echo '{\"signed_in\": true, \"account\": \"c:ada\"}'"} ;;
  *) echo "unknown command: $*" >&2; exit 2 ;;
esac
`

const packageEntries = (script = appScript(), extra: ReadonlyArray<PackEntry> = []): ReadonlyArray<PackEntry> => [
  { name: "app.json", content: JSON.stringify({ command: "bin/tool", install_script: "install.sh" }) },
  { name: "bin/", type: "directory" },
  { name: "bin/tool", content: script, mode: 0o755 },
  { name: "install.sh", content: "#!/bin/sh\necho installed\n", mode: 0o755 },
  ...extra
]

const tarGz = (entries: ReadonlyArray<PackEntry>) => Effect.promise(() => packTarGz(entries))

const upload = (appId: string, target: string, body: Uint8Array, headers: Record<string, string>) =>
  Effect.flatMap(RegistryUnderTest, ({ url }) =>
    Effect.promise(() =>
      fetch(`${url}/v1/apps/${appId}/packages/${target}`, {
        method: "POST",
        headers: { "content-type": "application/gzip", ...headers },
        body: body as Uint8Array<ArrayBuffer>
      })
    ))

const json = (response: Response) => Effect.promise(() => response.json() as Promise<any>)

/** A signed-in author and an app of theirs (written to the catalogue directly). */
const authorWithApp = Effect.gen(function*() {
  const author = yield* signedIn(newCarbon("Ada"))
  const appId = yield* insertApp([author.identity])
  return { ...author, appId }
})

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex")

layer(RegistryTest({ sandbox: { mode: "auto", commandSeconds: 2 } }), { excludeTestServices: true })("packages validated in the sandbox", (it) => {
  it.effect("an author's package that answers the three commands is accepted, stored and listed", () =>
    Effect.gen(function*() {
      const { appId, headers, identity } = yield* authorWithApp
      const archive = yield* tarGz(packageEntries())
      const response = yield* upload(appId, "linux-x64", archive, headers)
      expect(response.status).toBe(201)
      expect(response.headers.get("content-type")).toContain("application/json")
      const body = yield* json(response)
      expect(body).toEqual({
        id: expect.stringMatching(/^pkg_[0-9a-f]{32}$/),
        target: "linux-x64",
        sha256: sha256(archive),
        size: archive.length,
        command: "bin/tool",
        validation: [
          {
            command: "--help",
            exit_code: 0,
            stdout: "usage: tool [accounts | login status] [--json]\n",
            stderr: "",
            passed: true,
            expected: { exit_code: 0, stdout: "text", description: expect.any(String) },
            timed_out: false,
            signal: null
          },
          expect.objectContaining({ command: "accounts --json", exit_code: 0, stdout: "[{\"id\": \"c:ada\"}]\n", passed: true }),
          expect.objectContaining({ command: "login status --json", exit_code: 0, passed: true })
        ],
        created_at: expect.any(String)
      })
      const client = yield* registryClient(headers)
      const listed = yield* client.packages.list({ path: { app_id: appId } })
      expect(listed.items.map((item) => item.id)).toEqual([body.id])
      expect(listed.items[0]).toMatchObject({ sha256: body.sha256, size: archive.length, command: "bin/tool" })
      const history = yield* historyOf(appId)
      expect(history).toEqual([{
        kind: "package.accepted",
        actor_uuid: identity.uuid,
        data: { package_id: body.id, target: "linux-x64", sha256: body.sha256, size: archive.length, command: "bin/tool" }
      }])
    }))

  it.effect("the typed client uploads the bytes too, and the list is newest first", () =>
    Effect.gen(function*() {
      const { appId, headers } = yield* authorWithApp
      const client = yield* registryClient(headers)
      const first = yield* client.packages.upload({ path: { app_id: appId, target: "linux-x64" }, payload: yield* tarGz(packageEntries()) })
      const second = yield* client.packages.upload({
        path: { app_id: appId, target: "linux-x64" },
        payload: yield* tarGz(packageEntries(appScript({ help: "echo 'tool 2.0'" })))
      })
      expect(second.validation[0]!.stdout).toBe("tool 2.0\n")
      const listed = yield* client.packages.list({ path: { app_id: appId } })
      expect(listed.items.map((item) => item.id)).toEqual([second.id, first.id])
    }))

  it.effect("a package that does not show what it must is 422 with every command result, kept in history", () =>
    Effect.gen(function*() {
      const { appId, headers, identity } = yield* authorWithApp
      const archive = yield* tarGz(packageEntries(appScript({
        accounts: "echo 'no accounts yet'",
        login: "echo 'not signed in' >&2; exit 1"
      })))
      // With an Idempotency-Key the request runs in the kit's transaction: a 4xx answer commits with it.
      const response = yield* upload(appId, "linux-x64", archive, { ...headers, "idempotency-key": "refused-upload-1" })
      expect(response.status).toBe(422)
      const { error } = yield* json(response)
      expect(error).toEqual({
        code: "package_validation_failed",
        message: expect.stringContaining("`accounts --json`, `login status --json`"),
        hint: expect.any(String),
        details: {
          target: "linux-x64",
          sha256: sha256(archive),
          size: archive.length,
          command: "bin/tool",
          validation: [
            expect.objectContaining({ command: "--help", exit_code: 0, passed: true }),
            expect.objectContaining({
              command: "accounts --json",
              exit_code: 0,
              stdout: "no accounts yet\n",
              passed: false,
              expected: { exit_code: 0, stdout: "json", description: expect.any(String) }
            }),
            expect.objectContaining({
              command: "login status --json",
              exit_code: 1,
              stdout: "",
              stderr: "not signed in\n",
              passed: false,
              expected: { exit_code: 0, stdout: "json_object", description: expect.any(String) }
            })
          ]
        }
      })
      const history = yield* historyOf(appId)
      expect(history).toEqual([{
        kind: "package.refused",
        actor_uuid: identity.uuid,
        data: {
          target: "linux-x64",
          sha256: sha256(archive),
          size: archive.length,
          reason: "package_validation_failed",
          command: "bin/tool",
          validation: error.details.validation
        }
      }])
      const client = yield* registryClient(headers)
      expect((yield* client.packages.list({ path: { app_id: appId } })).items).toEqual([])
      // The same key again replays the refusal without running anything or writing history twice.
      const replay = yield* upload(appId, "linux-x64", archive, { ...headers, "idempotency-key": "refused-upload-1" })
      expect(replay.status).toBe(422)
      expect(replay.headers.get("idempotent-replayed")).toBe("true")
      expect(yield* historyOf(appId)).toHaveLength(1)
    }))

  it.effect("a command that hangs is stopped at its timeout and reported as such", () =>
    Effect.gen(function*() {
      const { appId, headers } = yield* authorWithApp
      const archive = yield* tarGz(packageEntries(appScript({ login: "exec sleep 600" })))
      const response = yield* upload(appId, "linux-x64", archive, headers)
      expect(response.status).toBe(422)
      const { error } = yield* json(response)
      expect(error.details.validation[2]).toMatchObject({
        command: "login status --json",
        exit_code: null,
        passed: false,
        timed_out: true,
        signal: "SIGKILL"
      })
    }))

  describe("unsafe archives", () => {
    it.effect.each([
      { what: "a parent reference", entries: [{ name: "../escape.sh", content: "x" }], reason: "parent_reference", entry: "../escape.sh" },
      { what: "an absolute path", entries: [{ name: "/etc/cron.d/x", content: "x" }], reason: "absolute_path", entry: "/etc/cron.d/x" },
      { what: "a symbolic link", entries: [{ name: "bin/etc", type: "symlink", linkname: "/etc" }], reason: "symlink", entry: "bin/etc" },
      { what: "a hard link", entries: [{ name: "passwd", type: "link", linkname: "/etc/passwd" }], reason: "hard_link", entry: "passwd" },
      { what: "a device", entries: [{ name: "null", type: "character-device" }], reason: "device", entry: "null" }
    ] as const)("$what is 422 package_unsafe naming the entry, kept in history", ({ entries, entry, reason }) =>
      Effect.gen(function*() {
        const { appId, headers } = yield* authorWithApp
        const response = yield* upload(appId, "linux-x64", yield* tarGz(packageEntries(appScript(), entries)), headers)
        expect(response.status).toBe(422)
        const { error } = yield* json(response)
        expect(error).toEqual({
          code: "package_unsafe",
          message: expect.stringContaining(JSON.stringify(entry)),
          hint: expect.any(String),
          details: { reason, entry, limit: null }
        })
        const history = yield* historyOf(appId)
        expect(history.map((item) => [item.kind, item.data.reason, item.data.unsafe])).toEqual([
          ["package.refused", "package_unsafe", { reason, entry }]
        ])
      }))

    it.effect("too many entries, a file too large, and a gzip bomb are refused with the limit", () =>
      Effect.gen(function*() {
        const { appId, headers } = yield* authorWithApp
        const many = Array.from({ length: 1000 }, (_, index) => ({ name: `data/${index}.txt`, content: "x" }))
        const tooMany = yield* json(yield* upload(appId, "linux-x64", yield* tarGz(packageEntries(appScript(), many)), headers))
        expect(tooMany.error).toMatchObject({ code: "package_unsafe", details: { reason: "too_many_entries", limit: 1000 } })
        const big = [{ name: "data/big.bin", content: new Uint8Array(33 * 1024 * 1024) }]
        const tooLarge = yield* json(yield* upload(appId, "linux-x64", yield* tarGz(packageEntries(appScript(), big)), headers))
        expect(tooLarge.error).toMatchObject({ code: "package_unsafe", details: { reason: "file_too_large", entry: "data/big.bin" } })
        const bomb = Array.from({ length: 3 }, (_, index) => ({ name: `data/${index}.bin`, content: new Uint8Array(30 * 1024 * 1024) }))
        const archive = yield* tarGz(packageEntries(appScript(), bomb))
        expect(archive.length).toBeLessThan(1024 * 1024)
        const bombed = yield* json(yield* upload(appId, "linux-x64", archive, headers))
        expect(bombed.error).toMatchObject({ code: "package_unsafe", details: { reason: "total_too_large", entry: null } })
      }), 30_000)

    it.effect("a body that is not a gzip-compressed tar, and a package without a usable app.json, are 422", () =>
      Effect.gen(function*() {
        const { appId, headers } = yield* authorWithApp
        const notGzip = yield* json(yield* upload(appId, "linux-x64", new TextEncoder().encode("just text"), headers))
        expect(notGzip.error).toMatchObject({ code: "package_unsafe", details: { reason: "not_gzip_tar", entry: null } })
        const noManifest = yield* upload(appId, "linux-x64", yield* tarGz([{ name: "bin/tool", content: appScript(), mode: 0o755 }]), headers)
        expect(noManifest.status).toBe(422)
        expect((yield* json(noManifest)).error).toMatchObject({ code: "package_manifest_invalid", details: { problem: expect.stringContaining("no app.json") } })
        const notExecutable = yield* tarGz([
          { name: "app.json", content: "{\"command\": \"bin/tool\"}" },
          { name: "bin/tool", content: appScript(), mode: 0o644 }
        ])
        const refused = yield* json(yield* upload(appId, "linux-x64", notExecutable, headers))
        expect(refused.error.details.problem).toContain("not executable")
        const extraMember = yield* tarGz([{ name: "app.json", content: "{\"command\": \"bin/tool\", \"run_as\": \"root\"}" }])
        expect((yield* json(yield* upload(appId, "linux-x64", extraMember, headers))).error.code).toBe("package_manifest_invalid")
        const history = yield* historyOf(appId)
        expect(history.map((item) => item.data.reason)).toEqual([
          "package_unsafe",
          "package_manifest_invalid",
          "package_manifest_invalid",
          "package_manifest_invalid"
        ])
      }))
  })

  describe("limits and refusals before the sandbox", () => {
    it.effect("a body over 5 MB is 413 in the envelope", () =>
      Effect.gen(function*() {
        const { appId, headers } = yield* authorWithApp
        const response = yield* upload(appId, "linux-x64", randomBytes(5 * 1024 * 1024 + 1), headers)
        expect(response.status).toBe(413)
        expect((yield* json(response)).error).toEqual({
          code: "payload_too_large",
          message: expect.stringContaining("5242880"),
          hint: null,
          details: { limit_bytes: 5242880 }
        })
        expect(yield* historyOf(appId)).toEqual([])
      }))

    it.effect("an unknown target is 400 unknown_target listing the accepted ones", () =>
      Effect.gen(function*() {
        const { appId, headers } = yield* authorWithApp
        const response = yield* upload(appId, "plan9-mips", yield* tarGz(packageEntries()), headers)
        expect(response.status).toBe(400)
        expect((yield* json(response)).error).toEqual({
          code: "unknown_target",
          message: expect.stringContaining("plan9-mips"),
          hint: expect.any(String),
          details: {
            parameter: "target",
            received: ["plan9-mips"],
            accepted: ["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64", "windows-x64"]
          }
        })
      }))

    it.effect("a target this host cannot run is 503 runner_unavailable, naming the ones it can", () =>
      Effect.gen(function*() {
        const { appId, headers } = yield* authorWithApp
        const response = yield* upload(appId, "darwin-arm64", yield* tarGz(packageEntries()), headers)
        expect(response.status).toBe(503)
        expect((yield* json(response)).error).toMatchObject({
          code: "runner_unavailable",
          details: { target: "darwin-arm64", runner_targets: ["linux-x64"] }
        })
        const client = yield* registryClient()
        const targets = yield* client.targets.list({ urlParams: { targets: "linux-x64,darwin-arm64" } })
        expect(targets.items.map((item) => [item.target, item.runner_available])).toEqual([["linux-x64", true], ["darwin-arm64", false]])
      }))

    it.effect("only authors upload and list: 404 for an app one cannot see, 403 for a developer token, a wrong media type 415", () =>
      Effect.gen(function*() {
        const { appId } = yield* authorWithApp
        const archive = yield* tarGz(packageEntries())
        const stranger = yield* signedIn(newCarbon("Eve"))
        const hidden = yield* upload(appId, "linux-x64", archive, stranger.headers)
        expect(hidden.status).toBe(404)
        expect((yield* json(hidden)).error.code).toBe("app_not_found")
        const developer = yield* signedIn(newCarbon("Dev"), "developer")
        const developerApp = yield* insertApp([developer.identity])
        const refused = yield* upload(developerApp, "linux-x64", archive, developer.headers)
        expect(refused.status).toBe(403)
        expect((yield* json(refused)).error.code).toBe("developer_token_not_allowed")
        const listedByDeveloper = yield* registryClient(developer.headers).pipe(
          Effect.flatMap((client) => client.packages.list({ path: { app_id: developerApp } }))
        )
        expect(listedByDeveloper.items).toEqual([])
        const anonymous = yield* upload(appId, "linux-x64", archive, {})
        expect(anonymous.status).toBe(401)
        const json415 = yield* upload(appId, "linux-x64", archive, { ...stranger.headers, "content-type": "application/json" })
        expect(json415.status).toBe(415)
      }))
  })
})
