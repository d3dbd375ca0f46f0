import { layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { expect } from "vitest"
import { Applications } from "../src/applications/Applications.ts"
import { Bundles } from "../src/applications/Bundles.ts"
import { PlatformAdminsRepo } from "../src/platform-admins/PlatformAdminsRepo.ts"
import { IamSessions } from "../src/sessions/IamSessions.ts"
import { registerApplication, signedIn, someIdentity } from "./support/applications.ts"
import { iamClient, IamTest } from "./support/IamTest.ts"

// The rules (registration, reviews, rotation with a step-up token, bundles) are in application-rules.test.ts.

const services = Layer.mergeAll(Applications.Default, Bundles.Default, PlatformAdminsRepo.Default, IamSessions.Default)

const bearerOf = (identity: ReturnType<typeof someIdentity>) =>
  Effect.flatMap(signedIn(identity), (pair) => iamClient({ authorization: `Bearer ${pair.access_token}` }))

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
})
