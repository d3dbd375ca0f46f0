import { HttpServerRequest } from "@effect/platform"
import { layer } from "@effect/vitest"
import { TestDatabase } from "@platform/database"
import { Effect, Either, Layer, Option, Redacted } from "effect"
import { expect } from "vitest"
import { Applications } from "../src/applications/Applications.ts"
import { Bundles } from "../src/applications/Bundles.ts"
import { validateRegistration } from "../src/applications/registration.ts"
import { reviewScopes } from "../src/applications/reviewScopes.ts"
import { rotateClientSecret } from "../src/applications/rotateClientSecret.ts"
import { type AuthenticatedIdentity, CurrentIdentity } from "../src/auth/CurrentIdentity.ts"
import { StepUpRequired } from "../src/auth/stepUpErrors.ts"
import { type StepUpDemand, StepUpGuard } from "../src/auth/StepUpGuard.ts"
import { IamConfigOf } from "../src/config.ts"
import { iamMigrations } from "../src/migrations.ts"
import { Memberships } from "../src/organizations/Memberships.ts"
import { MembersRepo } from "../src/organizations/MembersRepo.ts"
import { PlatformAdminsRepo } from "../src/platform-admins/PlatformAdminsRepo.ts"
import { ApplicationTestServices, registerApplication, signedInMember, someIdentity } from "./support/applications.ts"
import { iamTestSettings } from "./support/IamTest.ts"

// Registration, reviews, secret rotation and bundles at the service level; over HTTP in applications.test.ts.

/** A step-up guard that records what it was asked to spend, and refuses when told to. */
const recordingGuard = (spent: Array<StepUpDemand>, refuse = false) => ({
  spend: (demand: StepUpDemand) =>
    refuse ? Effect.fail(new StepUpRequired({ message: "no token" })) : Effect.sync(() => void spent.push(demand))
})

/** What a request through IamBearer provides: the caller and the request. */
const asCaller = (identity: ReturnType<typeof someIdentity>, sessionId = "ses_test") => <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  effect.pipe(
    Effect.provideService(CurrentIdentity, { uuid: identity.uuid, id: identity.id, kind: identity.kind, sessionId } satisfies AuthenticatedIdentity),
    Effect.provideService(HttpServerRequest.HttpServerRequest, HttpServerRequest.fromWeb(new Request("http://iam.test/")))
  )

const codeOf = <A, R>(effect: Effect.Effect<A, { readonly _tag: string }, R>) =>
  Effect.map(Effect.flip(effect), (error) => ("code" in error ? error.code : error._tag))

const base = {
  appId: "base-app",
  name: "Base",
  callbackUrls: ["https://base.example.test/cb"],
  scopes: [],
  webhookScope: [],
  consentRequired: false,
  ownerUuid: null,
  organizationId: null
}

layer(
  Layer.mergeAll(Applications.Default, Bundles.Default, PlatformAdminsRepo.Default, Memberships.Default, ApplicationTestServices)
    .pipe(Layer.provideMerge(IamConfigOf(iamTestSettings(4200))), Layer.provideMerge(TestDatabase.layer(iamMigrations)))
)("applications", (it) => {
  it("a registration always holds identity and self.profile.read; critical scopes wait for review", () => {
    const checked = validateRegistration(
      { ...base, scopes: ["organization.tags.read", "directory.*.read", "organization.governance.read", "self.trust.read"] },
      { loopbackHttp: false }
    )
    expect(Either.getOrThrow(checked)).toMatchObject({
      appScope: ["identity", "self.profile.read", "self.trust.read", "organization.tags.read"],
      pendingScopes: ["directory.*.read", "organization.governance.read"]
    })
  })

  it("callback URLs are https, http only on loopback in development; unknown scopes and events are refused", () => {
    const loopback = { ...base, callbackUrls: ["http://127.0.0.1:8080/cb"] }
    expect(Either.isRight(validateRegistration(loopback, { loopbackHttp: true }))).toBe(true)
    expect(validateRegistration(loopback, { loopbackHttp: false })).toEqual(
      Either.left({ callback_urls: "http://127.0.0.1:8080/cb must use https" })
    )
    expect(validateRegistration({
      ...base,
      appId: "No Caps",
      name: " padded",
      callbackUrls: ["https://a.example/cb#frag", "http://example.com/cb"],
      scopes: ["email"],
      webhookScope: ["organization.created.v1", "sso.connection.activated.v1"],
      ownerUuid: "someone"
    }, { loopbackHttp: true })).toEqual(Either.left({
      app_id: "must be 3 to 30 characters of a-z 0-9 - _",
      name: "must be 1 to 100 characters without leading or trailing spaces",
      callback_urls: "https://a.example/cb#frag must not have a fragment",
      app_scope: "\"email\" is not an application scope",
      webhook_scope: "\"sso.connection.activated.v1\" is not an event applications may subscribe to",
      owner_uuid: "must be a lower-case uuid"
    }))
    expect(Either.isLeft(validateRegistration({ ...base, callbackUrls: [] }, { loopbackHttp: true }))).toBe(true)
  })

  it.effect("an app_id is registered once; the secret is shown once and kept as a digest", () =>
    Effect.gen(function*() {
      const applications = yield* Applications
      const registered = yield* registerApplication("once-only", { webhookScope: ["organization.membership.created.v1"], consentRequired: true })
      expect(registered.client_secret).toMatch(/^acs_[A-Za-z0-9_-]{43}$/)
      expect(registered.application).toMatchObject({
        app_id: "once-only",
        app_scope: ["identity", "self.profile.read"],
        webhook_scope: ["organization.membership.created.v1"],
        consent_required: true,
        scope_version: 1,
        pending_scopes: []
      })
      expect(JSON.stringify(registered.application)).not.toContain(registered.client_secret)
      expect(yield* codeOf(registerApplication("once-only"))).toBe("app_id_taken")
      expect(Option.isSome(yield* applications.authenticate("once-only", registered.client_secret))).toBe(true)
      expect(Option.isNone(yield* applications.authenticate("once-only", "acs_wrong"))).toBe(true)
      expect(Option.isNone(yield* applications.authenticate("nobody", registered.client_secret))).toBe(true)
    }))

  it.effect("a platform admin's review approves and rejects pending scopes at once; approval raises scope_version", () =>
    Effect.gen(function*() {
      yield* registerApplication("reviewed", { scopes: ["directory.*.read", "organization.trust.read", "organization.invitations.read"] })
      const admin = someIdentity("admin")
      const admins = yield* PlatformAdminsRepo
      yield* admins.grant(admin.uuid, null, new Date())
      const spent: Array<StepUpDemand> = []
      const review = (approve: ReadonlyArray<string>, reject: ReadonlyArray<string>) =>
        reviewScopes("reviewed", { approve, reject }).pipe(asCaller(admin), Effect.provideService(StepUpGuard, recordingGuard(spent)))

      const reviewed = yield* review(["directory.*.read"], ["organization.trust.read"])
      expect(reviewed).toMatchObject({
        app_scope: ["identity", "self.profile.read", "directory.*.read"],
        scope_version: 2,
        pending_scopes: [{ scope: "organization.invitations.read" }]
      })
      expect(spent).toEqual([{ action: "platform_admin.application_review", resourceId: "reviewed" }])

      // All or nothing: one scope not pending refuses the whole decision.
      expect(yield* codeOf(review(["organization.invitations.read"], ["organization.trust.read"]))).toBe("scope_not_pending")
      expect(yield* (yield* Applications).registered("reviewed")).toMatchObject({ scope_version: 2, pending_scopes: [{ scope: "organization.invitations.read" }] })
      expect(yield* codeOf(review([], []))).toBe("validation_failed")

      // Rejecting alone leaves the version as it is.
      expect(yield* review([], ["organization.invitations.read"])).toMatchObject({ scope_version: 2, pending_scopes: [] })
    }))

  it.effect("only a Carbon with a current grant reviews, and a revoked grant stops it at once", () =>
    Effect.gen(function*() {
      yield* registerApplication("gated", { scopes: ["organization.governance.read"] })
      const admins = yield* PlatformAdminsRepo
      const carbon = someIdentity("reviewer")
      const spent: Array<StepUpDemand> = []
      const review = (who: ReturnType<typeof someIdentity>) =>
        reviewScopes("gated", { approve: ["organization.governance.read"], reject: [] }).pipe(
          asCaller(who),
          Effect.provideService(StepUpGuard, recordingGuard(spent))
        )
      expect(yield* codeOf(review(carbon))).toBe("platform_admin_required")
      const first = yield* admins.grant(carbon.uuid, null, new Date("2026-11-01T00:00:00Z"))
      // Granting again keeps the current grant.
      expect(yield* admins.grant(carbon.uuid, "someone-else", new Date("2026-11-02T00:00:00Z"))).toEqual(first)
      expect(yield* admins.revoke(carbon.uuid, null, new Date())).toBe(true)
      expect(yield* codeOf(review(carbon))).toBe("platform_admin_required")
      expect(spent).toEqual([])
      const silicon = someIdentity("robot", "silicon")
      yield* admins.grant(silicon.uuid, null, new Date())
      expect(yield* codeOf(review(silicon))).toBe("platform_admin_required")
    }))

  it.effect("the owner rotates the client secret with a step-up for this application; the old secret stops at once", () =>
    Effect.gen(function*() {
      const applications = yield* Applications
      const owner = someIdentity("owner")
      const registered = yield* registerApplication("rotating", { ownerUuid: owner.uuid })
      const spent: Array<StepUpDemand> = []

      expect(yield* codeOf(rotateClientSecret("rotating").pipe(asCaller(someIdentity("stranger")), Effect.provideService(StepUpGuard, recordingGuard(spent)))))
        .toBe("application_owner_required")
      expect(yield* codeOf(rotateClientSecret("rotating").pipe(asCaller(owner), Effect.provideService(StepUpGuard, recordingGuard(spent, true)))))
        .toBe("step_up_required")
      expect(spent).toEqual([])
      expect(Option.isSome(yield* applications.authenticate("rotating", Redacted.value(registered.secret)))).toBe(true)

      const rotated = yield* rotateClientSecret("rotating").pipe(asCaller(owner), Effect.provideService(StepUpGuard, recordingGuard(spent)))
      expect(spent).toEqual([{ action: "application.client_secret.rotate", resourceId: "rotating", applicationId: "rotating" }])
      expect(rotated.client_secret).toMatch(/^acs_/)
      expect(Option.isNone(yield* applications.authenticate("rotating", Redacted.value(registered.secret)))).toBe(true)
      expect(Option.isSome(yield* applications.authenticate("rotating", rotated.client_secret))).toBe(true)
      expect(yield* codeOf(rotateClientSecret("missing-app").pipe(asCaller(owner), Effect.provideService(StepUpGuard, recordingGuard(spent)))))
        .toBe("application_not_found")
    }))

  it.effect("an owning organization's owner and admins may rotate too; its members and former admins may not", () =>
    Effect.gen(function*() {
      const members = yield* MembersRepo
      const { identity: plain, orgIds: [orgId] } = yield* signedInMember("orgmember")
      const ownerRow = (yield* members.pageOf(orgId!, 10, Option.none())).find((member) => member.role === "owner")!
      const owner = { ...ownerRow.identity, status: "active" }
      const { identity: admin } = yield* signedInMember("orgadmin", 0)
      yield* members.add({ organizationId: orgId!, identityUuid: admin.uuid, role: "admin", addedBy: owner.uuid, at: new Date() })
      expect(yield* codeOf(registerApplication("org-owned-x", { organizationId: "org_missing" }))).toBe("validation_failed")
      yield* registerApplication("org-owned", { organizationId: orgId! })
      const rotate = (who: ReturnType<typeof someIdentity>) =>
        rotateClientSecret("org-owned").pipe(asCaller(who), Effect.provideService(StepUpGuard, recordingGuard([])))

      expect(yield* codeOf(rotate(plain))).toBe("application_owner_required")
      expect(yield* rotate(owner)).toMatchObject({ app_id: "org-owned" })
      expect(yield* rotate(admin)).toMatchObject({ app_id: "org-owned" })
      yield* members.setRole(orgId!, admin.uuid, "member", new Date())
      expect(yield* codeOf(rotate(admin))).toBe("application_owner_required")
    }))

  it.effect("a bundle names 1 to 100 distinct registered applications, in order", () =>
    Effect.gen(function*() {
      const bundles = yield* Bundles
      yield* registerApplication("bundled-b")
      yield* registerApplication("bundled-a")
      const bundle = yield* bundles.create("suite", ["bundled-b", "bundled-a"])
      expect(bundle.applications.map((application) => application.app_id)).toEqual(["bundled-b", "bundled-a"])
      expect(yield* bundles.find("suite")).toEqual(bundle)
      expect(yield* codeOf(bundles.create("suite", ["bundled-a"]))).toBe("bundle_id_taken")
      expect(yield* codeOf(bundles.create("other", ["bundled-a", "nobody"]))).toBe("validation_failed")
      expect(yield* codeOf(bundles.create("other", ["bundled-a", "bundled-a"]))).toBe("validation_failed")
      expect(yield* codeOf(bundles.create("other", []))).toBe("validation_failed")
      expect(yield* codeOf(bundles.find("other"))).toBe("bundle_not_found")
    }))
})
