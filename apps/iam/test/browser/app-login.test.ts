import { expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { messageAfter, messagesTo } from "@platform/testkit"
import { chromiumForFile, expectAccessible, expectPageHeaders, freshPage, recordPages, screenshots } from "@platform/testkit/chromium"
import { Effect, Redacted } from "effect"
import { IdentitiesRepo } from "../../src/identities/IdentitiesRepo.ts"
import { Organizations } from "../../src/organizations/Organizations.ts"
import { ApplicationTestServices, registerApplication } from "../support/applications.ts"
import { applicationFrontEnd, applicationServer } from "../support/applicationSide.ts"
import { accountsHold, newCarbon } from "../support/carbons.ts"
import { IamTest, IamUnderTest } from "../support/IamTest.ts"

const promise = <A>(run: () => Promise<A>) => Effect.promise(run)

const chromium = chromiumForFile()

/** How many SLTs exist for this identity: a GET of the page must never make one. */
const sltsOf = (identityUuid: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ n: number }>`select count(*)::int as n from application_short_lived_tokens where identity_uuid = ${identityUuid}`.pipe(
      Effect.map((rows) => rows[0]!.n),
      Effect.orDie
    ))

layer(IamTest(), { excludeTestServices: true })("the application login in Chromium", (it) => {
  it.scoped("a person signs in to three applications at once: code, consent, one organization, each application exchanges its own token", () =>
    Effect.gen(function*() {
      const { url } = yield* IamUnderTest
      const ada = yield* accountsHold(newCarbon("ada"))
      const email = ada.verified_emails[0]!
      // Ada owns two organizations in IAM (IAM has seen her before).
      yield* Effect.flatMap(IdentitiesRepo, (repo) =>
        repo.remember({ uuid: ada.uuid, id: ada.id!, kind: "carbon", display_name: ada.display_name, status: "active" }))
      const actor = { uuid: ada.uuid, id: ada.id!, kind: "carbon" as const, sessionId: "ses_setup" }
      const acme = yield* Effect.flatMap(Organizations, (orgs) => orgs.create(actor, { name: "Acme" }))
      yield* Effect.flatMap(Organizations, (orgs) => orgs.create(actor, { name: "Globex" }))

      // The applications' front end and their three servers, each with its own registration.
      const servers: Record<string, string> = {}
      const frontEnd = yield* applicationFrontEnd(() => servers)
      const suffix = Math.random().toString(36).slice(2, 7)
      const specs = [
        { appId: `notes-${suffix}`, consentRequired: true, scopes: ["self.organizations.read"] },
        { appId: `mail-${suffix}`, consentRequired: false, scopes: [] },
        { appId: `files-${suffix}`, consentRequired: true, scopes: [] }
      ]
      const registered = yield* Effect.forEach(specs, ({ appId, consentRequired, scopes }) =>
        registerApplication(appId, { name: appId.split("-")[0]!, callbackUrls: [frontEnd.callback], consentRequired, scopes }))
      const applications = yield* Effect.forEach(registered, (app, index) =>
        applicationServer({
          iamUrl: url,
          appId: app.appId,
          secret: Redacted.value(app.secret),
          anotherSecret: Redacted.value(registered[(index + 1) % registered.length]!.secret),
          frontEndOrigin: () => frontEnd.origin
        }))
      for (const app of applications) servers[app.appId] = app.url

      const { page } = yield* freshPage(chromium())
      const pages = recordPages(page, url)
      const appIds = applications.map((app) => app.appId).join(",")
      yield* promise(() => page.goto(`${url}/login?app_ids=${appIds}&return_to=${encodeURIComponent(frontEnd.callback)}`))
      yield* promise(() => page.getByRole("heading", { level: 1, name: "Sign in to 3 applications" }).waitFor())

      // No iam_session yet: sign in with a code sent by email.
      const seen = yield* messagesTo(email)
      yield* promise(() => page.getByLabel("Email address").fill(email))
      yield* promise(() => page.getByRole("button", { name: "Send me a code" }).click())
      const { code } = yield* messageAfter(email, seen)
      yield* promise(() => page.getByLabel("Code").fill(code!))
      yield* promise(() => page.getByRole("button", { name: "Verify" }).click())
      yield* promise(() => page.getByText(`Signed in as ada (${ada.id})`).waitFor())

      // Every GET so far, and another one, made no token.
      yield* promise(() => page.reload())
      yield* promise(() => page.getByRole("heading", { level: 2, name: "Your consent" }).waitFor())
      expect(yield* sltsOf(ada.uuid)).toBe(0)

      // Consent comes before the organization picker.
      const picker = page.getByRole("heading", { level: 2, name: "Organizations" })
      expect(yield* promise(() => picker.isVisible())).toBe(false)
      yield* promise(() => page.getByText("notes, files ask for your consent").waitFor())
      yield* promise(() => page.getByRole("button", { name: "Allow" }).click())
      yield* promise(() => picker.waitFor())
      yield* promise(() => expectAccessible(page, "organization picker"))
      yield* promise(() => screenshots(page, "app-login-organizations", "iam"))

      // No organization: the page refuses, and so does the server when asked directly.
      yield* promise(() => page.getByRole("button", { name: "Continue" }).click())
      yield* promise(() => page.getByText("Choose at least one organization.").waitFor())
      const refused = yield* promise(() =>
        page.evaluate(`fetch("/login/tokens", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ return_to: ${JSON.stringify(frontEnd.callback)}, applications: [
            { app_id: ${JSON.stringify(registered[1]!.appId)}, org_ids: [], approved_scopes: ["identity"], scope_version: 1 }
          ] })
        }).then(async (response) => [response.status, (await response.json()).error.code])`)
      )
      expect(refused).toEqual([422, "organization_required"])
      expect(yield* sltsOf(ada.uuid)).toBe(0)

      // One organization for all three; the callback page sends each token to its own application server.
      yield* promise(() => page.getByLabel("Acme (owner)").check())
      yield* promise(() => page.getByRole("button", { name: "Continue" }).click())
      yield* promise(() => page.getByText("Done: 3 applications").waitFor())
      expect(page.url()).toBe(frontEnd.callback)
      yield* promise(() => expectPageHeaders(pages))

      for (const app of applications) {
        expect(app.outcomes).toHaveLength(1)
        const outcome = app.outcomes[0]!
        expect(outcome.withAnotherSecret).toBe("invalid_client")
        expect(outcome.exchanged).toMatchObject({ sub: ada.uuid, username: ada.id, org_ids: [acme.organization.id] })
        expect(outcome.secondExchange).toBe("invalid_grant")
        expect(outcome.introspected).toMatchObject({ active: true, client_id: app.appId, sub: ada.uuid, org_ids: [acme.organization.id] })
        expect(outcome.refreshed.access_token).not.toBe(outcome.exchanged.access_token)
        expect(outcome.refreshed.session_id).toBe(outcome.exchanged.session_id)
      }
      expect(applications[0]!.outcomes[0]!.exchanged.scope).toBe("identity self.profile.read self.organizations.read")
      expect(yield* sltsOf(ada.uuid)).toBe(3)
    }).pipe(Effect.provide([ApplicationTestServices, IdentitiesRepo.Default])))
})
