import { expect, layer } from "@effect/vitest"
import { type PackEntry, packTarGz } from "@platform/sandbox"
import { Effect } from "effect"
import { createHash, createPublicKey, verify } from "node:crypto"
import { call, DESCRIPTION } from "./support/catalogue.ts"
import { newCarbon, registryClient, RegistryTest, RegistryUnderTest, signedIn } from "./support/RegistryTest.ts"

/** A command-line app in sh; `broken` makes `accounts --json` print something that is not JSON. */
const packageOf = (broken = false): ReadonlyArray<PackEntry> => [
  { name: "app.json", content: JSON.stringify({ command: "bin/notes" }) },
  { name: "bin/", type: "directory" },
  {
    name: "bin/notes",
    mode: 0o755,
    content: `#!/bin/sh
case "$*" in
  "--help") echo "usage: notes [accounts | login status] [--json]" ;;
  "accounts --json") ${broken ? "echo 'not json'" : "echo '[]'"} ;;
  "login status --json") echo '{"signed_in": false}' ;;
  *) exit 2 ;;
esac
`
  }
]

const upload = (appId: string, archive: Uint8Array, headers: Record<string, string>) =>
  Effect.flatMap(RegistryUnderTest, ({ url }) =>
    Effect.promise(async () => {
      const response = await fetch(`${url}/v1/apps/${appId}/packages/linux-x64`, {
        method: "POST",
        headers: { "content-type": "application/gzip", ...headers },
        body: archive as Uint8Array<ArrayBuffer>
      })
      return { status: response.status, body: await response.json() as any }
    }))

const sha256 = (bytes: ArrayBuffer) => createHash("sha256").update(Buffer.from(bytes)).digest("hex")

layer(RegistryTest({ sandbox: { mode: "auto", commandSeconds: 5 } }), { excludeTestServices: true })("an author's journey", (it) => {
  it.effect(
    "two authors (one invited by email), a package accepted and one refused, a release promoted, resolved, verified, downloaded, installed and withdrawn",
    () =>
      Effect.gen(function*() {
        const ada = yield* signedIn(newCarbon("Ada"))
        const graceIdentity = newCarbon("Grace")
        const grace = yield* signedIn(graceIdentity)
        const asAda = yield* registryClient(ada.headers)
        const asGrace = yield* registryClient(grace.headers)

        // Ada creates the app: its secret is shown once.
        const appId = `notes-${ada.identity.uuid.slice(0, 8)}`
        const created = yield* asAda.apps.create({ payload: { app_id: appId, name: "Notes" } })
        expect(created.app_secret.length).toBeGreaterThanOrEqual(32)
        expect(created.app.status).toBe("draft")

        // Grace is invited by her verified email and accepts: two authors.
        const invite = yield* asAda.invites.create({ path: { app_id: appId }, payload: { to: graceIdentity.verified_emails[0]! } })
        expect((yield* asGrace.invites.mine()).items.map((item) => item.id)).toContain(invite.id)
        expect(yield* asGrace.invites.accept({ path: { invite_id: invite.id }, payload: {} })).toEqual({ status: "accepted" })
        const authors = yield* asAda.authors.list({ path: { app_id: appId } })
        expect(authors.items.map((author) => author.uuid).sort()).toEqual([ada.identity.uuid, grace.identity.uuid].sort())

        // Grace's package passes the three commands in the sandbox; a broken one is refused with every result.
        const accepted = yield* upload(appId, yield* Effect.promise(() => packTarGz(packageOf())), grace.headers)
        expect(accepted.status).toBe(201)
        expect(accepted.body.validation.map((result: any) => [result.command, result.passed])).toEqual([
          ["--help", true],
          ["accounts --json", true],
          ["login status --json", true]
        ])
        const refused = yield* upload(appId, yield* Effect.promise(() => packTarGz(packageOf(true))), grace.headers)
        expect(refused.status).toBe(422)
        expect(refused.body.error.code).toBe("package_validation_failed")
        expect(refused.body.error.details.validation.find((result: any) => result.command === "accounts --json")).toMatchObject({
          passed: false,
          stdout: "not json\n"
        })

        // A development release, promoted to production; then the app is published.
        const development = yield* asAda.releases.create({
          path: { app_id: appId },
          payload: { version: "1.0.0", package_ids: [accepted.body.id] }
        })
        const production = yield* asAda.releases.promote({
          path: { app_id: appId, release_id: development.id },
          payload: { version: "1.0.0" }
        })
        expect(production.channel).toBe("production")
        yield* asAda.apps.update({ path: { app_id: appId }, payload: { description: DESCRIPTION } })
        expect((yield* asAda.apps.publish({ path: { app_id: appId }, payload: {} })).status).toBe("published")

        // Anyone resolves it; the manifest's signature holds under the key the registry publishes (node:crypto).
        const resolved = yield* call("GET", `/v1/apps/${appId}/resolve?target=linux-x64`)
        expect(resolved.status).toBe(200)
        expect(resolved.body.release.id).toBe(production.id)
        const keys = yield* call("GET", "/.well-known/silicon-apps-keys.json")
        const key = keys.body.items.find((item: any) => item.key_id === resolved.body.signature.key_id)
        const { manifest, value } = resolved.body.signature
        expect(verify(null, Buffer.from(manifest), createPublicKey(key.public_key), Buffer.from(value, "base64"))).toBe(true)
        const signed = JSON.parse(manifest)
        expect(signed).toMatchObject({ app_id: appId, release_id: production.id, version: "1.0.0", channel: "production" })

        // Downloaded: the bytes are the ones signed.
        const { url } = yield* RegistryUnderTest
        const bytes = yield* Effect.promise(() => fetch(`${url}${resolved.body.download_path}`).then((response) => response.arrayBuffer()))
        expect(sha256(bytes)).toBe(signed.packages[0].sha256)

        // Installed twice with one key: counted once.
        const install = { release_id: production.id, package_id: accepted.body.id }
        const first = yield* call("POST", `/v1/apps/${appId}/installs`, { body: install, headers: { "idempotency-key": "install-once-1" } })
        const again = yield* call("POST", `/v1/apps/${appId}/installs`, { body: install, headers: { "idempotency-key": "install-once-1" } })
        expect([first.body, again.body]).toEqual([{ installs: 1 }, { installs: 1 }])
        expect(again.headers.get("idempotent-replayed")).toBe("true")
        expect((yield* call("GET", `/v1/apps/${appId}`)).body.installs).toBe(1)

        // 1.0.1 replaces 1.0.0, which is withdrawn: naming it is 410 with the reason and the replacement.
        const fixedDevelopment = yield* asAda.releases.create({
          path: { app_id: appId },
          payload: { version: "1.0.1", package_ids: [accepted.body.id] }
        })
        const fixed = yield* asAda.releases.promote({
          path: { app_id: appId, release_id: fixedDevelopment.id },
          payload: { version: "1.0.1" }
        })
        yield* asGrace.releases.withdraw({
          path: { app_id: appId, release_id: production.id },
          payload: { reason: "Crashes on start.", replacement_release_id: fixed.id }
        })
        const gone = yield* call("GET", `/v1/apps/${appId}/resolve?target=linux-x64&version=1.0.0`)
        expect(gone.status).toBe(410)
        expect(gone.body.error).toMatchObject({
          code: "release_withdrawn",
          details: { reason: "Crashes on start.", replacement: { release_id: fixed.id, version: "1.0.1" } }
        })
        expect((yield* call("GET", `/v1/apps/${appId}/resolve?target=linux-x64`)).body.release.id).toBe(fixed.id)

        // The history holds the story.
        const history = yield* asAda.apps.history({ path: { app_id: appId }, urlParams: {} })
        const kinds = history.items.map((item) => item.kind)
        for (const kind of ["app.created", "package.accepted", "package.refused", "release.withdrawn"]) expect(kinds).toContain(kind)
      }),
    120_000
  )
})
