import { layer } from "@effect/vitest"
import { IamApplicationClient } from "@platform/iam-app-api"
import { Effect, Layer, Redacted } from "effect"
import { expect } from "vitest"
import { Applications } from "../src/applications/Applications.ts"
import { Bundles } from "../src/applications/Bundles.ts"
import { carbonIdentity } from "../src/identities/fromAccounts.ts"
import { PlatformAdminsRepo } from "../src/platform-admins/PlatformAdminsRepo.ts"
import { IamSessions } from "../src/sessions/IamSessions.ts"
import { registerApplication, signedIn, someIdentity } from "./support/applications.ts"
import { accountsHold, newCarbon } from "./support/carbons.ts"
import { iamClient, IamTest, IamUnderTest } from "./support/IamTest.ts"
import { stepUp } from "./support/stepUp.ts"

// The rules (registration, reviews, rotation, bundles) are in application-rules.test.ts.

const services = Layer.mergeAll(Applications.Default, Bundles.Default, PlatformAdminsRepo.Default, IamSessions.Default)

const bearerOf = (identity: ReturnType<typeof someIdentity>) =>
  Effect.flatMap(signedIn(identity), (pair) => iamClient({ authorization: `Bearer ${pair.access_token}` }))

/** A Carbon accounts holds (with a verified email for step-up codes), signed in to IAM. */
const signedInCarbon = (name: string) =>
  Effect.gen(function*() {
    const carbon = yield* accountsHold(newCarbon(name))
    const pair = yield* signedIn(carbonIdentity({ ...carbon, id: carbon.id ?? "" }))
    return { carbon, email: carbon.verified_emails[0]!, pair }
  })

/** Whether IAM takes this application secret: introspection answers 200 to it and 401 invalid_client to a wrong one. */
const secretWorks = (appId: string, secret: string) =>
  Effect.flatMap(IamUnderTest, ({ url }) =>
    Effect.provide(
      Effect.flatMap(IamApplicationClient, (client) => Effect.either(client.introspect("aat_x"))),
      IamApplicationClient.layer({ baseUrl: url, appId, secret: Redacted.make(secret) })
    )).pipe(Effect.map((answer) => answer._tag === "Right"))

const codeOf = <A, R>(effect: Effect.Effect<A, { readonly _tag: string }, R>) =>
  Effect.map(Effect.flip(effect), (error) => ("code" in error ? error.code : error._tag))

layer(IamTest(), { excludeTestServices: true })("applications over HTTP", (it) => {
  it.effect("anyone reads an application and a bundle as the login page shows them, without secrets or owners", () =>
    Effect.gen(function*() {
      const owner = someIdentity("publisher")
      const registered = yield* registerApplication("public-read", {
        ownerUuid: owner.uuid,
        scopes: ["organization.tags.read", "organization.trust.read"],
        consentRequired: true
      })
      yield* registerApplication("public-read-2")
      yield* (yield* Bundles).create("public-suite", ["public-read-2", "public-read"])
      const client = yield* iamClient()
      const application = yield* client.applications.read({ path: { app_id: "public-read" } })
      expect(application).toEqual({
        app_id: "public-read",
        name: "Application public-read",
        app_scope: ["identity", "self.profile.read", "organization.tags.read"],
        webhook_scope: [],
        consent_required: true,
        scope_version: 1
      })
      expect(JSON.stringify(application)).not.toContain(registered.client_secret)
      const bundle = yield* client.applications.bundle({ path: { bundle_id: "public-suite" } })
      expect(bundle.applications.map((member) => member.app_id)).toEqual(["public-read-2", "public-read"])
      expect(yield* codeOf(client.applications.read({ path: { app_id: "nobody" } }))).toBe("application_not_found")
      expect(yield* codeOf(client.applications.bundle({ path: { bundle_id: "nothing" } }))).toBe("bundle_not_found")
    }).pipe(Effect.provide(services)))

  it.effect("a client-secret rotation needs the owner's bearer, then a step-up token", () =>
    Effect.gen(function*() {
      const owner = someIdentity("rotator")
      yield* registerApplication("rotate-http", { ownerUuid: owner.uuid })
      const anonymous = yield* iamClient()
      expect(yield* codeOf(anonymous.applicationCredentials.rotateClientSecret({ path: { app_id: "rotate-http" } }))).toBe("unauthenticated")
      const stranger = yield* bearerOf(someIdentity("bystander"))
      expect(yield* codeOf(stranger.applicationCredentials.rotateClientSecret({ path: { app_id: "rotate-http" } })))
        .toBe("application_owner_required")
      const ownerClient = yield* bearerOf(owner)
      expect(yield* codeOf(ownerClient.applicationCredentials.rotateClientSecret({ path: { app_id: "rotate-http" } })))
        .toBe("step_up_required")
      expect(yield* codeOf(ownerClient.applicationCredentials.rotateClientSecret({ path: { app_id: "nobody" } })))
        .toBe("application_not_found")
    }).pipe(Effect.provide(services)))

  it.effect("platform admins list and read applications awaiting review; a review needs a step-up token", () =>
    Effect.gen(function*() {
      yield* registerApplication("awaits-a", { scopes: ["directory.*.read"] })
      yield* registerApplication("awaits-b", { scopes: ["organization.invitations.read", "organization.governance.read"] })
      yield* registerApplication("awaits-none", { scopes: ["self.organizations.read"] })
      const admin = someIdentity("platform")
      yield* (yield* PlatformAdminsRepo).grant(admin.uuid, null, new Date())

      const notAdmin = yield* bearerOf(someIdentity("regular"))
      expect(yield* codeOf(notAdmin.applicationReviews.awaitingReview({ urlParams: {} }))).toBe("platform_admin_required")
      expect(yield* codeOf(notAdmin.applicationReviews.read({ path: { app_id: "awaits-a" } }))).toBe("platform_admin_required")

      const adminClient = yield* bearerOf(admin)
      const first = yield* adminClient.applicationReviews.awaitingReview({ urlParams: { limit: 1 } })
      expect(first.items.map((item) => item.app_id)).toEqual(["awaits-a"])
      const second = yield* adminClient.applicationReviews.awaitingReview({ urlParams: { limit: 1, cursor: first.next_cursor! } })
      expect(second.items).toMatchObject([
        { app_id: "awaits-b", pending_scopes: [{ scope: "organization.governance.read" }, { scope: "organization.invitations.read" }] }
      ])
      expect(yield* adminClient.applicationReviews.read({ path: { app_id: "awaits-none" } })).toMatchObject({
        app_scope: ["identity", "self.profile.read", "self.organizations.read"],
        pending_scopes: []
      })
      expect(yield* codeOf(adminClient.applicationReviews.review({
        path: { app_id: "awaits-a" },
        payload: { approve: ["directory.*.read"], reject: [] }
      }))).toBe("step_up_required")
    }).pipe(Effect.provide(services)))

  it.effect("the owner rotates the client secret with a step-up token minted for this application; the old secret stops at once", () =>
    Effect.gen(function*() {
      const owner = yield* signedInCarbon("keeper")
      const registered = yield* registerApplication("rotate-step-up", { ownerUuid: owner.carbon.uuid })
      const rotate = (token: string) =>
        Effect.flatMap(
          iamClient({ authorization: `Bearer ${owner.pair.access_token}`, "x-step-up-token": token }),
          (client) => client.applicationCredentials.rotateClientSecret({ path: { app_id: "rotate-step-up" } })
        )
      const action = "application.client_secret.rotate" as const
      const forNoApplication = yield* stepUp(owner.pair.access_token, owner.email, action, "rotate-step-up")
      expect(yield* codeOf(rotate(forNoApplication.step_up_token))).toBe("step_up_mismatch")

      const token = (yield* stepUp(owner.pair.access_token, owner.email, action, "rotate-step-up", "rotate-step-up")).step_up_token
      const rotated = yield* rotate(token)
      expect(rotated).toEqual({ app_id: "rotate-step-up", client_secret: expect.stringMatching(/^acs_/), secret_rotated_at: expect.any(String) })
      expect(yield* secretWorks("rotate-step-up", Redacted.value(registered.secret))).toBe(false)
      expect(yield* secretWorks("rotate-step-up", rotated.client_secret)).toBe(true)
      expect(yield* codeOf(rotate(token))).toBe("step_up_used")
    }).pipe(Effect.provide(services)))

  it.effect("a platform admin's review with a step-up token puts approved scopes in effect and raises scope_version", () =>
    Effect.gen(function*() {
      const admin = yield* signedInCarbon("reviewer")
      yield* (yield* PlatformAdminsRepo).grant(admin.carbon.uuid, null, new Date())
      yield* registerApplication("review-step-up", { scopes: ["organization.trust.read", "directory.*.read"] })
      const token = (yield* stepUp(admin.pair.access_token, admin.email, "platform_admin.application_review", "review-step-up")).step_up_token
      const client = yield* iamClient({ authorization: `Bearer ${admin.pair.access_token}`, "x-step-up-token": token })
      const reviewed = yield* client.applicationReviews.review({
        path: { app_id: "review-step-up" },
        payload: { approve: ["organization.trust.read"], reject: ["directory.*.read"] }
      })
      expect(reviewed).toMatchObject({ scope_version: 2, pending_scopes: [] })
      expect(yield* (yield* iamClient()).applications.read({ path: { app_id: "review-step-up" } })).toMatchObject({
        app_scope: ["identity", "self.profile.read", "organization.trust.read"],
        scope_version: 2
      })
    }).pipe(Effect.provide(services)))
})
