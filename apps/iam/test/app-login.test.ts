import { layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { IamApplicationClient } from "@platform/iam-app-api"
import { Effect, Redacted } from "effect"
import { randomUUID } from "node:crypto"
import { expect } from "vitest"
import { Applications } from "../src/applications/Applications.ts"
import { Bundles } from "../src/applications/Bundles.ts"
import { makeSessionCookieSigner } from "../src/sessions/sessionCookie.ts"
import { ApplicationTestServices, mintSlt, registerApplication, signedInMember } from "./support/applications.ts"
import { answerOf } from "./support/http.ts"
import { IamTest, IamUnderTest } from "./support/IamTest.ts"

// The rules one by one (batch size, scope_version, scopes, organizations, consent, return_to) are in app-login-rules.test.ts.

const unique = (name: string) => `${name}${randomUUID().slice(0, 6)}`

/** A registered application with a unique id, its secret and its client from @platform/iam-app-api. */
const application = (name: string, request: Parameters<typeof registerApplication>[1] = {}) =>
  Effect.gen(function*() {
    const appId = unique(name)
    const registered = yield* registerApplication(appId, request)
    const { url } = yield* IamUnderTest
    const client = yield* Effect.provide(
      IamApplicationClient,
      IamApplicationClient.layer({ baseUrl: url, appId, secret: registered.secret })
    )
    return { appId, secret: registered.secret, client, scopeVersion: registered.application.scope_version }
  })

const json = (bearer: string, body: unknown): RequestInit => ({
  method: "POST",
  headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json" },
  body: JSON.stringify(body)
})

const organizationsOf = (bearer: string, appIds: ReadonlyArray<string>) =>
  answerOf(`/api/v1/app-auth/batch/organizations?app_ids=${appIds.map(encodeURIComponent).join(",")}`, {
    headers: { authorization: `Bearer ${bearer}` }
  })

const mint = (bearer: string, applications: ReadonlyArray<unknown>) =>
  answerOf("/api/v1/app-auth/batch/short-lived-tokens", json(bearer, { applications }))

/** What a login of this identity left: SLTs, consents and handoffs. */
const traces = (identityUuid: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ slts: number; consents: number; handoffs: number }>`
      select
        (select count(*)::int from application_short_lived_tokens where identity_uuid = ${identityUuid}) as slts,
        (select count(*)::int from app_consents where identity_uuid = ${identityUuid}) as consents,
        (select count(*)::int from app_login_handoffs where identity_uuid = ${identityUuid}) as handoffs
    `.pipe(Effect.map((rows) => rows[0]!), Effect.orDie))

layer(IamTest(), { excludeTestServices: true })("the application login handoff over HTTP", (it) => {
  it.effect("the organizations read: each application's validation and permission list, and the caller's active organizations", () =>
    Effect.gen(function*() {
      const ada = yield* signedInMember(unique("ada"), 2)
      const notes = yield* application("notes", { consentRequired: true, scopes: ["self.organizations.read"] })
      const mail = yield* application("mail")
      const answer = yield* organizationsOf(ada.pair.access_token, [notes.appId, "nope", mail.appId])
      expect(answer.status).toBe(200)
      expect(answer.body.applications).toEqual([
        {
          app_id: notes.appId,
          valid: true,
          name: `Application ${notes.appId}`,
          app_scope: ["identity", "self.profile.read", "self.organizations.read"],
          scope_version: 1,
          consent_required: true,
          consent_current: false
        },
        { app_id: "nope", valid: false, problem: "unknown" },
        expect.objectContaining({ app_id: mail.appId, valid: true, consent_required: false, consent_current: false })
      ])
      expect(answer.body.organizations.map((org: { organization_id: string }) => org.organization_id).sort()).toEqual([...ada.orgIds].sort())
      expect(answer.body.organizations[0]).toMatchObject({ role: "member", name: expect.any(String) })

      const hundred = Array.from({ length: 100 }, (_, index) => `app-${index}`)
      const full = yield* organizationsOf(ada.pair.access_token, hundred)
      expect(full.status).toBe(200)
      expect(full.body.applications).toHaveLength(100)
      expect((yield* organizationsOf(ada.pair.access_token, [...hundred, "app-100"])).body.error).toMatchObject({
        code: "too_many_applications",
        details: { limit: 100, given: 101 }
      })
      expect((yield* organizationsOf(ada.pair.access_token, [mail.appId, mail.appId])).body.error).toMatchObject({
        code: "duplicate_applications",
        details: { app_ids: [mail.appId] }
      })
      const none = yield* answerOf("/api/v1/app-auth/batch/organizations", { headers: { authorization: `Bearer ${ada.pair.access_token}` } })
      expect([none.status, none.body.error.code]).toEqual([400, "applications_required"])
    }).pipe(Effect.provide(ApplicationTestServices)))

  it.effect("only a direct IAM bearer: an application's bearer or secret is refused on both routes", () =>
    Effect.gen(function*() {
      const ada = yield* signedInMember(unique("ada"), 1)
      const mail = yield* application("mail")
      const session = yield* mail.client.exchange((yield* mintSlt(mail.appId, ada)).slt)
      const approval = [{ app_id: mail.appId, org_ids: ada.orgIds, approved_scopes: ["identity"], scope_version: 1 }]
      const basic = `Basic ${Buffer.from(`${mail.appId}:${Redacted.value(mail.secret)}`).toString("base64")}`
      for (const authorization of [`Bearer ${session.access_token}`, basic]) {
        const read = yield* answerOf(`/api/v1/app-auth/batch/organizations?app_ids=${mail.appId}`, { headers: { authorization } })
        expect([read.status, read.body.error.code]).toEqual([401, "unauthenticated"])
        const minted = yield* answerOf("/api/v1/app-auth/batch/short-lived-tokens", {
          method: "POST",
          headers: { authorization, "content-type": "application/json" },
          body: JSON.stringify({ applications: approval })
        })
        expect([minted.status, minted.body.error.code]).toEqual([401, "unauthenticated"])
      }
      expect((yield* traces(ada.identity.uuid)).consents).toBe(0)
    }).pipe(Effect.provide(ApplicationTestServices)))

  it.effect("the tokens of a batch: one per application, one request_id, consent recorded, each exchanged by its own application only", () =>
    Effect.gen(function*() {
      const ada = yield* signedInMember(unique("ada"), 2)
      const notes = yield* application("notes", { consentRequired: true, scopes: ["self.organizations.read"] })
      const mail = yield* application("mail")
      const answer = yield* mint(ada.pair.access_token, [
        { app_id: notes.appId, org_ids: [ada.orgIds[1]], approved_scopes: ["identity", "self.organizations.read"], scope_version: 1 },
        { app_id: mail.appId, org_ids: ada.orgIds, approved_scopes: ["identity", "self.profile.read"], scope_version: 1 }
      ])
      expect(answer.status).toBe(200)
      const [forNotes, forMail] = answer.body.tokens
      expect(answer.body.tokens.map((token: { app_id: string }) => token.app_id)).toEqual([notes.appId, mail.appId])
      expect(forNotes).toMatchObject({ expires_in: 120, request_id: expect.stringMatching(/^hof_/) })
      expect(forMail.request_id).toBe(forNotes.request_id)
      expect(yield* traces(ada.identity.uuid)).toEqual({ slts: 2, consents: 2, handoffs: 1 })

      // The token carries what was approved and consented: not self.profile.read, which notes has but was not approved.
      const session = yield* notes.client.exchange(forNotes.slt)
      expect(session).toMatchObject({ sub: ada.identity.uuid, org_ids: [ada.orgIds[1]], scope: "identity self.organizations.read" })
      // An SLT is bound to its application: notes cannot exchange mail's (and it is spent by the attempt).
      expect(yield* Effect.flip(notes.client.exchange(forMail.slt))).toMatchObject({ _tag: "OAuthError", error: "invalid_grant" })

      const after = yield* organizationsOf(ada.pair.access_token, [notes.appId, mail.appId])
      expect(after.body.applications.map((check: { consent_current: boolean }) => check.consent_current)).toEqual([false, true])
    }).pipe(Effect.provide(ApplicationTestServices)))

  it.effect("one bad approval refuses the batch: no token, no consent, no handoff", () =>
    Effect.gen(function*() {
      const ada = yield* signedInMember(unique("ada"), 1)
      const stranger = yield* signedInMember(unique("bo"), 1)
      const notes = yield* application("notes")
      const mail = yield* application("mail")
      const good = (appId: string) => ({ app_id: appId, org_ids: ada.orgIds, approved_scopes: ["identity"], scope_version: 1 })
      // The bad approval comes last, after good ones: nothing of the good ones is kept.
      const refusals: ReadonlyArray<readonly [ReadonlyArray<unknown>, number, string]> = [
        [[good(notes.appId), { ...good(mail.appId), org_ids: [ada.orgIds[0], stranger.orgIds[0]] }], 403, "not_an_active_member"],
        [[good(notes.appId), { ...good(mail.appId), org_ids: [] }], 422, "organization_required"],
        [[good(notes.appId), { ...good(mail.appId), scope_version: 2 }], 409, "scope_version_changed"],
        [[good(notes.appId), { ...good(mail.appId), approved_scopes: ["identity", "directory.*.read"] }], 422, "scope_not_permitted"],
        [[good(notes.appId), good(mail.appId), good("nope")], 422, "application_unavailable"],
        [[good(notes.appId), good(mail.appId), good(notes.appId)], 422, "duplicate_applications"]
      ]
      for (const [applications, status, code] of refusals) {
        const answer = yield* mint(ada.pair.access_token, applications)
        expect([answer.status, answer.body.error.code], code).toEqual([status, code])
      }
      const many = Array.from({ length: 101 }, (_, index) => good(`app-${index}`))
      expect((yield* mint(ada.pair.access_token, many)).body.error.code).toBe("too_many_applications")
      expect((yield* mint(ada.pair.access_token, [])).body.error.code).toBe("applications_required")
      expect(yield* traces(ada.identity.uuid)).toEqual({ slts: 0, consents: 0, handoffs: 0 })
    }).pipe(Effect.provide(ApplicationTestServices)))

  it.effect("a scope change needs fresh consent: the old scope_version is refused until the new permissions are approved", () =>
    Effect.gen(function*() {
      const ada = yield* signedInMember(unique("ada"), 1)
      const files = yield* application("files", { consentRequired: true, scopes: ["directory.*.read"] })
      const approve = (scopes: ReadonlyArray<string>, version: number) =>
        mint(ada.pair.access_token, [{ app_id: files.appId, org_ids: ada.orgIds, approved_scopes: scopes, scope_version: version }])
      expect((yield* approve(["identity", "self.profile.read"], 1)).status).toBe(200)
      expect((yield* organizationsOf(ada.pair.access_token, [files.appId])).body.applications[0].consent_current).toBe(true)

      // A platform admin approves the critical scope: app_scope grows and scope_version moves to 2.
      yield* Effect.flatMap(Applications, (applications) => applications.review(files.appId, { approve: ["directory.*.read"], reject: [] }, randomUUID()))
      const changed = (yield* organizationsOf(ada.pair.access_token, [files.appId])).body.applications[0]
      expect(changed).toMatchObject({ scope_version: 2, consent_current: false, app_scope: ["identity", "self.profile.read", "directory.*.read"] })
      const stale = yield* approve(["identity", "self.profile.read"], 1)
      expect([stale.status, stale.body.error.code, stale.body.error.details]).toEqual([409, "scope_version_changed", { app_id: files.appId, scope_version: 2 }])
      expect((yield* approve(["identity", "self.profile.read", "directory.*.read"], 2)).status).toBe(200)
      expect((yield* organizationsOf(ada.pair.access_token, [files.appId])).body.applications[0].consent_current).toBe(true)
    }).pipe(Effect.provide(ApplicationTestServices)))

  it.effect("the login page's approval needs the browser session and IAM's own Origin, and a registered return_to", () =>
    Effect.gen(function*() {
      const { url, settings } = yield* IamUnderTest
      const ada = yield* signedInMember(unique("ada"), 1)
      const mail = yield* application("mail")
      const cookie = `iam_session=${makeSessionCookieSigner(settings.secretKey).sign(ada.sessionId)}`
      const body = (returnTo: string) =>
        JSON.stringify({
          return_to: returnTo,
          applications: [{ app_id: mail.appId, org_ids: ada.orgIds, approved_scopes: ["identity"], scope_version: 1 }]
        })
      const post = (headers: Record<string, string>, returnTo = `https://${mail.appId}.example.test/callback`) =>
        answerOf("/login/tokens", { method: "POST", headers: { "content-type": "application/json", ...headers }, body: body(returnTo) })

      expect((yield* post({ origin: url })).body.error.code).toBe("unauthenticated")
      expect((yield* post({ cookie, origin: "https://elsewhere.example" })).body.error.code).toBe("origin_not_allowed")
      expect((yield* post({ cookie })).body.error.code).toBe("origin_not_allowed")
      const elsewhere = yield* post({ cookie, origin: url }, "https://evil.example.test/callback")
      expect([elsewhere.status, elsewhere.body.error.code]).toEqual([422, "return_to_not_registered"])
      expect(yield* traces(ada.identity.uuid)).toEqual({ slts: 0, consents: 0, handoffs: 0 })

      const answer = yield* post({ cookie, origin: url })
      expect(answer.status).toBe(200)
      const redirect = new URL(answer.body.redirect_to)
      expect(redirect.origin + redirect.pathname).toBe(`https://${mail.appId}.example.test/callback`)
      const [token] = JSON.parse(decodeURIComponent(redirect.hash.slice("#slts=".length)))
      expect(token).toMatchObject({ app_id: mail.appId, expires_in: 120 })
      expect((yield* mail.client.exchange(token.slt)).username).toBe(ada.identity.id)
      const handoff = yield* Effect.flatMap(SqlClient.SqlClient, (sql) =>
        sql`select via, return_to from app_login_handoffs where identity_uuid = ${ada.identity.uuid}`.pipe(Effect.orDie))
      expect(handoff).toEqual([{ via: "page", return_to: `https://${mail.appId}.example.test/callback` }])
    }).pipe(Effect.provide(ApplicationTestServices)))

  it.effect("the login page only renders: a bundle's applications, consent only when not current, every refusal as a page, never a token", () =>
    Effect.gen(function*() {
      const ada = yield* signedInMember(unique("ada"), 1)
      const notes = yield* application("notes", { consentRequired: true })
      const mail = yield* application("mail")
      const bundleId = unique("suite")
      yield* Effect.flatMap(Bundles, (bundles) => bundles.create(bundleId, [notes.appId, mail.appId]))
      const { settings } = yield* IamUnderTest
      const cookie = `iam_session=${makeSessionCookieSigner(settings.secretKey).sign(ada.sessionId)}`
      const page = (query: string, headers: Record<string, string> = {}) =>
        Effect.flatMap(IamUnderTest, ({ url }) =>
          Effect.promise(async () => {
            const response = await fetch(`${url}/login?${query}`, { headers: { accept: "text/html", ...headers } })
            return { status: response.status, type: response.headers.get("content-type"), html: await response.text() }
          }))

      const signIn = yield* page(`bundle_id=${bundleId}`)
      expect([signIn.status, signIn.type]).toEqual([200, "text/html; charset=utf-8"])
      expect(signIn.html).toContain("Sign in to 2 applications")
      expect(signIn.html).toContain("First, sign in to IAM")
      const signedIn = yield* page(`bundle_id=${bundleId}&return_to=${encodeURIComponent(`https://${mail.appId}.example.test/callback`)}`, { cookie })
      expect(signedIn.html).toContain(`data-app-id="${notes.appId}"`)
      expect(signedIn.html).toContain(`data-return-to="https://${mail.appId}.example.test/callback"`)
      expect(signedIn.html).toContain("Your consent")
      // Once consented at this scope_version, the page asks no more; with no organization it offers no way on.
      const consented = yield* mint(ada.pair.access_token, [
        { app_id: notes.appId, org_ids: ada.orgIds, approved_scopes: ["identity", "self.profile.read"], scope_version: 1 }
      ])
      expect(consented.status).toBe(200)
      expect((yield* page(`bundle_id=${bundleId}`, { cookie })).html).not.toContain("Your consent")
      const loner = yield* signedInMember(unique("cy"), 0)
      const lonerCookie = `iam_session=${makeSessionCookieSigner(settings.secretKey).sign(loner.sessionId)}`
      const nowhere = yield* page(`bundle_id=${bundleId}`, { cookie: lonerCookie })
      expect(nowhere.html).toContain("You are not an active member of any organization")
      expect(nowhere.html).not.toContain("approve-form")

      const refusals: ReadonlyArray<readonly [string, number, string]> = [
        [`bundle_id=${unique("nobundle")}`, 404, "bundle_not_found"],
        [`app_ids=${notes.appId},nope`, 400, "nope is not a registered application."],
        [`app_ids=${notes.appId},${notes.appId}`, 422, "duplicate_applications"],
        ["app_ids=", 400, "applications_required"],
        [`app_ids=${notes.appId}&bundle_id=${bundleId}`, 400, "not both"],
        [`app_ids=${notes.appId}&return_to=${encodeURIComponent("https://evil.example.test/callback")}`, 422, "return_to_not_registered"]
      ]
      for (const [query, status, shown] of refusals) {
        const refused = yield* page(query, { cookie })
        expect([refused.status, refused.type], query).toEqual([status, "text/html; charset=utf-8"])
        expect(refused.html).toContain(shown)
      }
      // Only the bearer's approval above made a token: none of the pages did.
      expect(yield* traces(ada.identity.uuid)).toEqual({ slts: 1, consents: 1, handoffs: 1 })
    }).pipe(Effect.provide([ApplicationTestServices, Bundles.Default])))
})
