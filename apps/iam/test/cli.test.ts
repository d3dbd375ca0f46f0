import { basicAuthorization } from "@platform/auth"
import { freePort, runToExit, spawnService, webhookReceiver, type WebhookReceiver } from "@platform/testkit"
import { Effect, Exit, Scope } from "effect"
import { randomUUID } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

const root = join(import.meta.dirname, "..", "..", "..")

/** The Carbon accounts knows, as its internal identity route answers it. */
const knownCarbon = {
  uuid: randomUUID(),
  id: "c:owner",
  kind: "carbon",
  display_name: "Owner",
  status: "active",
  verified_emails: ["owner@example.com"],
  verified_phones: []
}

describe("npm run iam -- …, on the embedded database", () => {
  let dataDir = ""
  let accounts: WebhookReceiver
  const scope = Effect.runSync(Scope.make())
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "iam-cli-"))
    // accounts' internal identity route, answering for one Carbon.
    accounts = await Effect.runPromise(Scope.extend(webhookReceiver, scope))
    accounts.answerWith((request) =>
      request.path === `/v1/internal/identities/${knownCarbon.uuid}`
        ? { status: 200, headers: { "content-type": "application/json" }, body: JSON.stringify(knownCarbon) }
        : {
          status: 404,
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ error: { code: "account_not_found", message: "No account has this uuid." } })
        }
    )
  })
  afterAll(async () => {
    rmSync(dataDir, { recursive: true, force: true })
    await Effect.runPromise(Scope.close(scope, Exit.void))
  })

  /** Runs the operator command as `npm run iam -- <args>` would, on the test's data directory and accounts. */
  const iam = async (...args: Array<string>) => {
    const env = { IAM_DATA_DIR: dataDir, IAM_ACCOUNTS_URL: accounts.url, IAM_ACCOUNTS_INTERNAL_TOKEN: "cli-test-token" }
    const finished = await runToExit({ entry: "apps/iam/src/cli.ts", cwd: root, env, args })
    return { ...finished, lines: finished.stdout.trim().split("\n").filter((line) => line !== "") }
  }
  /** One JSON object on stdout, nothing on stderr, exit 0. */
  const printed = async (...args: Array<string>) => {
    const finished = await iam(...args)
    expect({ code: finished.code, stderr: finished.stderr, lines: finished.lines.length }).toEqual({ code: 0, stderr: "", lines: 1 })
    return JSON.parse(finished.lines[0]!) as Record<string, unknown>
  }
  /** One line on stderr, nothing on stdout, a non-zero exit. */
  const refused = async (...args: Array<string>) => {
    const finished = await iam(...args)
    expect(finished.code).not.toBe(0)
    expect(finished.stdout).toBe("")
    expect(finished.stderr.trim().split("\n")).toHaveLength(1)
    return finished.stderr.trim()
  }

  it("registers an application with the server stopped, and refuses its app_id a second time", async () => {
    const registered = await printed(
      "applications",
      "register",
      "--app-id",
      "cli-mail",
      "--name",
      "Mail",
      "--callback-url",
      "https://mail.example.test/cb",
      "--callback-url",
      "http://127.0.0.1:5173/cb",
      "--scope",
      "organization.tags.read,directory.*.read",
      "--webhook-scope",
      "organization.membership.created.v1",
      "--consent-required"
    )
    expect(registered).toMatchObject({
      application: {
        app_id: "cli-mail",
        name: "Mail",
        app_scope: ["identity", "self.profile.read", "organization.tags.read"],
        pending_scopes: [{ scope: "directory.*.read" }],
        webhook_scope: ["organization.membership.created.v1"],
        consent_required: true,
        scope_version: 1,
        callback_urls: ["https://mail.example.test/cb", "http://127.0.0.1:5173/cb"]
      },
      client_secret: expect.stringMatching(/^acs_/)
    })
    expect(await refused("applications", "register", "--app-id", "cli-mail", "--name", "Again", "--callback-url", "https://a.example/cb"))
      .toBe("iam: An application already has the id \"cli-mail\".")
  }, 300_000)

  it("registers applications, makes bundles, platform admins and organizations while the server runs on the same database", async () => {
    const port = await freePort()
    const server = await spawnService({
      entry: "apps/iam/src/main.ts",
      cwd: root,
      url: `http://127.0.0.1:${port}`,
      env: { IAM_DATA_DIR: dataDir, IAM_PORT: String(port), IAM_DRAIN_SECONDS: "1" }
    })
    try {
      // The server holds the embedded database; the operator command reaches it through the server's socket.
      const registered = await printed("applications", "register", "--app-id", "cli-live", "--name", "Live", "--callback-url", "https://live.example.test/cb")
      const read = await fetch(`${server.url}/api/v1/applications/cli-live`)
      expect(await read.json()).toMatchObject({ app_id: "cli-live", name: "Live", scope_version: 1 })
      const introspected = await fetch(`${server.url}/api/v1/oauth/introspect`, {
        method: "POST",
        headers: {
          authorization: basicAuthorization("cli-live", registered["client_secret"] as string),
          "content-type": "application/x-www-form-urlencoded"
        },
        body: "token=aat_nothing"
      })
      expect({ status: introspected.status, body: await introspected.json() }).toEqual({ status: 200, body: { active: false } })
      expect(await refused("applications", "register", "--app-id", "cli-bad", "--name", "Bad", "--callback-url", "https://a.example/cb", "--scope", "email"))
        .toBe("iam: The registration is not valid. (app_scope \"email\" is not an application scope)")

      const bundle = await printed("bundles", "create", "--bundle-id", "cli-suite", "--app-id", "cli-live", "--app-id", "cli-mail")
      expect(bundle).toMatchObject({ bundle_id: "cli-suite", applications: [{ app_id: "cli-live" }, { app_id: "cli-mail" }] })
      expect(await (await fetch(`${server.url}/api/v1/bundles/cli-suite`)).json()).toEqual(bundle)
      expect(await refused("bundles", "create", "--bundle-id", "cli-other", "--app-id", "nobody"))
        .toBe("iam: The bundle is not valid. (app_ids no application has the id nobody)")

      const admin = randomUUID()
      expect(await printed("admins", "grant", "--carbon-uuid", admin)).toEqual({
        carbon_uuid: admin,
        granted_at: expect.any(String),
        granted_by: null
      })
      expect(await refused("admins", "grant", "--carbon-uuid", "not-a-uuid")).toBe("iam: --carbon-uuid must be a lower-case uuid")

      // The owner is resolved at accounts once, then known to IAM.
      const organization = await printed("organizations", "create", "--name", " Acme ", "--owner-uuid", knownCarbon.uuid)
      expect(organization).toMatchObject({ organization: { name: "Acme", owner_uuid: knownCarbon.uuid }, role: "owner" })
      const asked = accounts.received().length
      await printed("organizations", "create", "--name", "Acme Labs", "--owner-uuid", knownCarbon.uuid)
      expect(accounts.received()).toHaveLength(asked)
      expect(await refused("organizations", "create", "--name", "Nobody's", "--owner-uuid", randomUUID())).toBe("iam: No account has this uuid.")
      const orgId = (organization["organization"] as { id: string }).id
      const owned = await printed(
        "applications", "register", "--app-id", "cli-org-app", "--name", "Org app", "--callback-url", "https://org.example.test/cb",
        "--organization-id", orgId
      )
      expect(owned).toMatchObject({ application: { organization_id: orgId, owner_uuid: null } })
      expect(await server.stop()).toBe(0)
    } finally {
      await server.stop()
    }
  }, 300_000)
})
