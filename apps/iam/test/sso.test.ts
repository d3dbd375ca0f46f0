import { SqlClient } from "@effect/sql"
import { layer } from "@effect/vitest"
import { messageAfter, messagesTo } from "@platform/testkit"
import { hmacSha256V1 } from "@platform/webhooks"
import { Effect, Layer, Option } from "effect"
import { expect } from "vitest"
import { MembersRepo } from "../src/organizations/MembersRepo.ts"
import { PlatformAdminsRepo } from "../src/platform-admins/PlatformAdminsRepo.ts"
import { IamSessions } from "../src/sessions/IamSessions.ts"
import { ApplicationTestServices, registerApplication, signedInMember } from "./support/applications.ts"
import { accountsHold, newCarbon } from "./support/carbons.ts"
import { answerOf } from "./support/http.ts"
import { eventTypesOf } from "./support/iamEvents.ts"
import { iamClient, IamTest, IamUnderTest } from "./support/IamTest.ts"
import { makeBrowser, startIdentityProvider } from "./support/oidcProvider.ts"
import { signedInCarbon } from "./support/signedIn.ts"
import { stepUp } from "./support/stepUp.ts"

const Iam = Layer.mergeAll(ApplicationTestServices, PlatformAdminsRepo.Default).pipe(Layer.provideMerge(IamTest()))

const codeOf = <A, R>(effect: Effect.Effect<A, { readonly _tag: string }, R>) =>
  Effect.map(Effect.flip(effect), (error) => ("code" in error ? error.code : error._tag))

/** A Carbon accounts holds, signed in, with the email its step-up codes go to. */
const person = (name: string) =>
  Effect.gen(function*() {
    const carbon = yield* accountsHold(newCarbon(name))
    const signed = yield* signedInCarbon(carbon)
    const email = carbon.verified_emails[0]!
    const withStepUp = (action: Parameters<typeof stepUp>[2], resourceId: string) =>
      Effect.flatMap(stepUp(signed.bearer, email, action, resourceId), (token) =>
        iamClient({ authorization: `Bearer ${signed.bearer}`, "x-step-up-token": token.step_up_token }))
    return { ...signed, carbon, email, withStepUp }
  })

const signed = (secret: string, body: string, timestamp = Math.floor(Date.now() / 1000)) => ({
  method: "POST",
  headers: { "content-type": "application/json", "x-sso-timestamp": String(timestamp), "x-sso-signature": hmacSha256V1.sign(secret, timestamp, body) },
  body
})

layer(Iam, { excludeTestServices: true })("organization SSO and platform administration over HTTP", (it) => {
  it.effect("entitlement, setup link, provider, activation; members sign in through the provider; webhook; deactivation", () =>
    Effect.gen(function*() {
      const { url } = yield* IamUnderTest
      const owner = yield* person("owner")
      const member = yield* person("member")
      const outsider = yield* person("outsider")
      const admin = yield* person("platform")
      yield* (yield* PlatformAdminsRepo).grant(admin.carbon.uuid, null, new Date())
      const { organization } = yield* owner.client.organizations.create({ payload: { name: "Acme" } })
      const orgId = organization.id
      yield* (yield* MembersRepo).add({ organizationId: orgId, identityUuid: member.carbon.uuid, role: "member", addedBy: owner.carbon.uuid, at: new Date() })

      // No entitlement yet: no setup link. Only a platform admin grants one, with step-up.
      expect(yield* codeOf(owner.client.organizationSso.createSetupLink({ path: { organization_id: orgId } }))).toBe("sso_not_entitled")
      const entitle = { path: { organization_id: orgId }, payload: { max_connections: 1 } }
      expect(yield* codeOf(owner.client.adminOrganizations.replaceEntitlement(entitle))).toBe("platform_admin_required")
      expect(yield* codeOf(admin.client.adminOrganizations.replaceEntitlement(entitle))).toBe("step_up_required")
      const badLimit = yield* answerOf(`/api/v1/admin/organizations/${orgId}/sso-entitlement`, {
        method: "PUT",
        headers: { authorization: `Bearer ${admin.bearer}`, "content-type": "application/json" },
        body: JSON.stringify({ max_connections: 0 })
      })
      expect([badLimit.status, badLimit.body.error.code]).toEqual([422, "validation_failed"])
      const adminStepped = yield* admin.withStepUp("platform_admin.sso_entitlement", orgId)
      expect(yield* codeOf(adminStepped.adminOrganizations.replaceEntitlement({ ...entitle, path: { organization_id: "org_nope" } })))
        .toBe("organization_not_found")
      expect(yield* adminStepped.adminOrganizations.replaceEntitlement(entitle)).toMatchObject({ max_connections: 1, granted_by: admin.carbon.uuid })

      // The owner's setup link (step-up organization.sso_change); a plain member may not make one.
      expect(yield* codeOf(member.client.organizationSso.createSetupLink({ path: { organization_id: orgId } }))).toBe("organization_admin_required")
      const link = yield* (yield* owner.withStepUp("organization.sso_change", orgId)).organizationSso.createSetupLink({ path: { organization_id: orgId } })
      expect(link.token).toMatch(/^ssl_/)

      // Whoever holds the link names the provider; IAM reads its discovery document through the guard.
      const idp = yield* startIdentityProvider(`${url}/api/v1/sso/callback`, {
        "member-sub": { email: member.email.toUpperCase(), email_verified: true },
        "outsider-sub": { email: outsider.email, email_verified: true },
        "unverified-sub": { email: member.email, email_verified: false },
        "userinfo-sub": { email: member.email, email_verified: true, emailInIdToken: false }
      })
      const anonymous = yield* iamClient()
      const submit = (fields: Partial<{ token: string; issuer: string }>) =>
        anonymous.sso.submitProvider({ payload: { token: link.token, issuer: idp.issuer, client_id: "iam", client_secret: "provider-side-secret", ...fields } })
      expect(yield* codeOf(submit({ token: "ssl_nope" }))).toBe("sso_setup_link_not_found")
      expect(yield* codeOf(submit({ issuer: "ftp://idp.example" }))).toBe("validation_failed")
      expect(yield* codeOf(submit({ issuer: "http://127.0.0.1:1" }))).toBe("sso_issuer_unusable")
      const submitted = yield* submit({})
      expect(submitted).toMatchObject({ connection: { status: "pending", issuer: idp.issuer }, redirect_uri: `${url}/api/v1/sso/callback` })
      expect(submitted.webhook_signing_secret).toMatch(/^ssw_/)
      expect(yield* codeOf(submit({}))).toBe("sso_setup_link_used")
      const late = yield* (yield* owner.withStepUp("organization.sso_change", orgId)).organizationSso.createSetupLink({ path: { organization_id: orgId } })
      yield* Effect.flatMap(SqlClient.SqlClient, (sql) =>
        sql`update sso_setup_links set expires_at = now() - interval '1 second' where id = ${late.setup_link_id}`.pipe(Effect.orDie))
      expect(yield* codeOf(submit({ token: late.token }))).toBe("sso_setup_link_expired")
      const connection = submitted.connection
      const loginUrl = `${connection.login_url}?return_to=/after`
      expect((yield* answerOf(`/api/v1/sso/connections/${connection.id}/login`)).body.error.code).toBe("sso_connection_inactive")

      // Activation (step-up on the connection); then a member signs in through the provider.
      const activate = { path: { organization_id: orgId, connection_id: connection.id } }
      expect(yield* codeOf(owner.client.organizationSso.activate(activate))).toBe("step_up_required")
      expect(yield* (yield* owner.withStepUp("organization.sso_change", connection.id)).organizationSso.activate(activate))
        .toMatchObject({ status: "active" })
      expect((yield* answerOf(`/api/v1/sso/connections/${connection.id}/login?return_to=https://evil.example`)).body.error.code)
        .toBe("validation_failed")

      const browser = makeBrowser()
      idp.signInAs("member-sub")
      const signedIn = yield* browser.navigate(loginUrl, `${url}/after`)
      expect([signedIn.response.status, signedIn.location]).toEqual([303, `${url}/after`])
      const cookie = browser.cookie(url, "iam_session")!
      const sessionId = cookie.split(".")[1]!
      const sessions = yield* IamSessions
      expect(Option.map(yield* sessions.live(sessionId), (live) => live.identity_uuid)).toEqual(Option.some(member.carbon.uuid))

      // A provider that answers the email only at userinfo: IAM reads it there.
      idp.signInAs("userinfo-sub")
      const throughUserinfo = makeBrowser()
      const viaUserinfo = yield* throughUserinfo.navigate(loginUrl, `${url}/after`)
      expect([viaUserinfo.response.status, viaUserinfo.location]).toEqual([303, `${url}/after`])
      const userinfoSession = throughUserinfo.cookie(url, "iam_session")!.split(".")[1]!
      expect(Option.map(yield* sessions.live(userinfoSession), (live) => live.identity_uuid)).toEqual(Option.some(member.carbon.uuid))

      // A stranger to the organization, and an unverified email, are refused; so is an answer this browser did not start.
      idp.signInAs("outsider-sub")
      const refused = yield* makeBrowser().navigate(loginUrl)
      expect([refused.response.status, ((yield* Effect.promise(() => refused.response.json())) as { error: { code: string } }).error.code]).toEqual([403, "sso_not_a_member"])
      idp.signInAs("unverified-sub")
      const unverified = yield* makeBrowser().navigate(loginUrl)
      expect(unverified.response.status).toBe(403)
      expect((yield* answerOf("/api/v1/sso/callback?state=forged&code=x")).body.error.code).toBe("sso_state_invalid")

      // Code login still works for the member.
      const seen = yield* messagesTo(member.email)
      const challenge = yield* anonymous.login.createChallenge({ payload: { email: member.email } })
      const code = (yield* messageAfter(member.email, seen)).code ?? ""
      const pair = yield* anonymous.login.verify({ path: { session_id: challenge.session_id }, payload: { code } })

      // The provider's webhook: a bad signature is 401; a deprovisioning ends the SSO session, not the code one.
      const hook = `/api/v1/sso/connections/${connection.id}/provider-events`
      const body = JSON.stringify({ type: "user.deprovisioned", subject: "member-sub" })
      const forged = yield* answerOf(hook, signed("ssw_wrong", body))
      expect([forged.status, forged.body.error.code]).toEqual([401, "invalid_signature"])
      const stale = yield* answerOf(hook, signed(submitted.webhook_signing_secret, body, Math.floor(Date.now() / 1000) - 600))
      expect(stale.status).toBe(401)
      const unknownType = JSON.stringify({ type: "user.renamed", subject: "member-sub" })
      expect((yield* answerOf(hook, signed(submitted.webhook_signing_secret, unknownType))).body.error.code).toBe("validation_failed")
      const ended = yield* answerOf(hook, signed(submitted.webhook_signing_secret, body))
      expect([ended.status, ended.body]).toEqual([200, { ended_sessions: 1 }])
      expect(yield* sessions.live(sessionId)).toEqual(Option.none())
      expect(Option.isSome(yield* sessions.live(pair.session_id))).toBe(true)

      // Deactivation stops SSO login; disabling and removing the entitlement leave nothing active.
      const deactivated = yield* (yield* owner.withStepUp("organization.sso_change", connection.id)).organizationSso.deactivate(activate)
      expect(deactivated.status).toBe("inactive")
      expect((yield* answerOf(`/api/v1/sso/connections/${connection.id}/login`)).body.error.code).toBe("sso_connection_inactive")
      yield* (yield* owner.withStepUp("organization.sso_change", orgId)).organizationSso.disable({ path: { organization_id: orgId } })

      // The admin views.
      expect(yield* codeOf(owner.client.adminOrganizations.read({ path: { organization_id: orgId } }))).toBe("platform_admin_required")
      const viewed = yield* admin.client.adminOrganizations.read({ path: { organization_id: orgId } })
      expect(viewed).toMatchObject({
        organization: { id: orgId, name: "Acme" },
        members_count: 2,
        sso: { state: "inactive", entitlement: { max_connections: 1 }, connections: [{ id: connection.id, status: "inactive" }] }
      })
      const listed = yield* admin.client.adminOrganizations.list({ urlParams: { limit: 200 } })
      expect(listed.items.find((item) => item.organization.id === orgId)).toEqual({ organization: viewed.organization, members_count: 2 })
      expect(yield* codeOf(admin.client.adminOrganizations.list({ urlParams: { cursor: "nonsense" } }))).toBe("invalid_cursor")
      yield* (yield* admin.withStepUp("platform_admin.sso_entitlement", orgId)).adminOrganizations.removeEntitlement({ path: { organization_id: orgId } })
      expect((yield* admin.client.adminOrganizations.read({ path: { organization_id: orgId } })).sso.state).toBe("not_entitled")
      expect(yield* codeOf((yield* admin.withStepUp("platform_admin.sso_entitlement", orgId)).adminOrganizations.removeEntitlement({
        path: { organization_id: orgId }
      }))).toBe("sso_entitlement_not_found")

      expect((yield* eventTypesOf(orgId)).filter((type) => type.startsWith("sso."))).toEqual([
        "sso.entitlement.replaced.v1",
        "sso.setup_link.created.v1",
        "sso.setup_link.created.v1",
        "sso.connection.activated.v1",
        "sso.connection.deactivated.v1",
        "sso.configuration.disabled.v1",
        "sso.entitlement.replaced.v1"
      ])
    }).pipe(Effect.scoped))

  it.effect("an admin review blocks a critical permission until a platform admin approves it with step-up", () =>
    Effect.gen(function*() {
      const { url } = yield* IamUnderTest
      const registered = yield* registerApplication("directory-app", { scopes: ["directory.*.read"] })
      const ada = yield* signedInMember("ada")
      const mint = (scopes: ReadonlyArray<string>, version: number) =>
        answerOf("/api/v1/app-auth/batch/short-lived-tokens", {
          method: "POST",
          headers: { authorization: `Bearer ${ada.pair.access_token}`, "content-type": "application/json" },
          body: JSON.stringify({ applications: [{ app_id: "directory-app", org_ids: ada.orgIds, approved_scopes: scopes, scope_version: version }] })
        })
      const blocked = yield* mint(["identity", "directory.*.read"], 1)
      expect([blocked.status, blocked.body.error.code]).toEqual([422, "scope_not_permitted"])

      const admin = yield* person("reviewer")
      yield* (yield* PlatformAdminsRepo).grant(admin.carbon.uuid, null, new Date())
      const review = { path: { app_id: "directory-app" }, payload: { approve: ["directory.*.read" as const], reject: [] } }
      expect(yield* codeOf(admin.client.applicationReviews.review(review))).toBe("step_up_required")
      expect(yield* (yield* admin.withStepUp("platform_admin.application_review", "directory-app")).applicationReviews.review(review))
        .toMatchObject({ scope_version: 2, pending_scopes: [] })

      const minted = yield* mint(["identity", "directory.*.read"], 2)
      expect(minted.status).toBe(200)
      const exchanged = yield* answerOf("/api/v1/oauth/token", {
        method: "POST",
        headers: {
          authorization: `Basic ${Buffer.from(`directory-app:${registered.client_secret}`).toString("base64")}`,
          "content-type": "application/x-www-form-urlencoded"
        },
        body: new URLSearchParams({ grant_type: "urn:iam:params:oauth:grant-type:short-lived-token", slt: minted.body.tokens[0].slt }).toString()
      })
      expect(exchanged.status).toBe(200)
      expect(exchanged.body.scope.split(" ")).toContain("directory.*.read")
      expect(url).toMatch(/^http/)
    }))
})
