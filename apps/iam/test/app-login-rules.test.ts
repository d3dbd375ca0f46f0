import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Option } from "effect"
import { distinctBatch, splitIds } from "../src/app-login/batch.ts"
import type { Consent } from "../src/app-login/ConsentsRepo.ts"
import type { LoginApplication } from "../src/app-login/LoginApplication.ts"
import { chooseReturnTo, withTokens } from "../src/app-login/returnTo.ts"
import { type Approval, consentIsCurrent, planTokens } from "../src/app-login/rules.ts"

const application = (appId: string, overrides: Partial<LoginApplication> = {}): LoginApplication => ({
  app_id: appId,
  name: appId.toUpperCase(),
  app_scope: ["identity", "self.profile.read", "self.organizations.read"],
  scope_version: 2,
  consent_required: true,
  callback_urls: [`https://${appId}.example.test/callback`],
  ...overrides
})

const approval = (appId: string, overrides: Partial<Approval> = {}): Approval => ({
  app_id: appId,
  org_ids: ["org_a"],
  approved_scopes: ["identity", "self.profile.read"],
  scope_version: 2,
  ...overrides
})

const plan = (approvals: ReadonlyArray<Approval>, consents: ReadonlyArray<Consent> = []) =>
  planTokens(
    approvals,
    new Map([["notes", application("notes")], ["mail", application("mail")]]),
    new Set(["org_a", "org_b"]),
    new Map(consents.map((consent) => [consent.app_id, consent]))
  )

const refusal = (approvals: ReadonlyArray<Approval>) => Option.getOrUndefined(Either.getLeft(plan(approvals)))

describe("a batch of applications", () => {
  it.effect("names 1 to 100 applications, each once", () =>
    Effect.gen(function*() {
      expect(splitIds(" notes, mail,,")).toEqual(["notes", "mail"])
      expect(yield* distinctBatch(["notes", "mail"])).toEqual(["notes", "mail"])
      expect(yield* Effect.flip(distinctBatch([]))).toMatchObject({ code: "applications_required", status: 400 })
      const hundred = Array.from({ length: 100 }, (_, i) => `app${i}`)
      expect(yield* distinctBatch(hundred)).toHaveLength(100)
      expect(yield* Effect.flip(distinctBatch([...hundred, "app100"]))).toMatchObject({
        code: "too_many_applications",
        status: 422,
        details: { limit: 100, given: 101 }
      })
      expect(yield* Effect.flip(distinctBatch(["notes", "mail", "notes", "notes"]))).toMatchObject({
        code: "duplicate_applications",
        details: { app_ids: ["notes"] }
      })
    }))
})

describe("approvals", () => {
  it("plan every token when every approval holds, each with the chosen organizations once", () => {
    const planned = Either.getOrThrow(plan([approval("notes", { org_ids: ["org_b", "org_a", "org_b"] }), approval("mail")]))
    expect(planned.map((token) => [token.app.app_id, token.orgIds, token.scopes])).toEqual([
      ["notes", ["org_b", "org_a"], ["identity", "self.profile.read"]],
      ["mail", ["org_a"], ["identity", "self.profile.read"]]
    ])
  })

  it("refuse the whole batch at its first bad approval, saying which application", () => {
    expect(refusal([approval("notes"), approval("nope")])).toMatchObject({ code: "application_unavailable", details: { app_id: "nope", reason: "unknown" } })
    expect(refusal([approval("notes", { scope_version: 1 })])).toMatchObject({
      code: "scope_version_changed",
      status: 409,
      details: { app_id: "notes", scope_version: 2 }
    })
    expect(refusal([approval("mail", { approved_scopes: ["identity", "directory.*.read"] })])).toMatchObject({
      code: "scope_not_permitted",
      details: { app_id: "mail", scopes: ["directory.*.read"] }
    })
    expect(refusal([approval("notes"), approval("mail", { org_ids: [] })])).toMatchObject({
      code: "organization_required",
      details: { app_id: "mail" }
    })
    expect(refusal([approval("notes", { org_ids: ["org_a", "org_z"] })])).toMatchObject({
      code: "not_an_active_member",
      status: 403,
      details: { app_id: "notes", organization_id: "org_z" }
    })
  })

  it("grow the consent at the same scope_version and replace it at a new one; the token carries approved and consented only", () => {
    const earlier: Consent = { app_id: "notes", scopes: ["self.organizations.read"], scope_version: 2 }
    const [same] = Either.getOrThrow(plan([approval("notes")], [earlier]))
    expect(same!.consent.scopes).toEqual(["self.organizations.read", "identity", "self.profile.read"])
    expect(same!.scopes).toEqual(["identity", "self.profile.read"])
    const [fresh] = Either.getOrThrow(plan([approval("notes")], [{ ...earlier, scope_version: 1 }]))
    expect(fresh!.consent).toEqual({ app_id: "notes", scopes: ["identity", "self.profile.read"], scope_version: 2 })
  })

  it("a consent is current when it covers the application's permissions at its scope_version", () => {
    const notes = application("notes")
    expect(consentIsCurrent(notes, undefined)).toBe(false)
    expect(consentIsCurrent(notes, { app_id: "notes", scopes: notes.app_scope, scope_version: 2 })).toBe(true)
    expect(consentIsCurrent(notes, { app_id: "notes", scopes: notes.app_scope, scope_version: 1 })).toBe(false)
    expect(consentIsCurrent(notes, { app_id: "notes", scopes: ["identity"], scope_version: 2 })).toBe(false)
  })
})

describe("where the tokens go", () => {
  const apps = [application("notes", { callback_urls: [] }), application("mail", { callback_urls: ["https://mail.example.test/cb", "https://mail.example.test/other"] })]

  it("a registered callback of one of the applications, exactly; else the first application's first", () => {
    expect(chooseReturnTo(apps, "https://mail.example.test/other")).toEqual(Either.right("https://mail.example.test/other"))
    expect(chooseReturnTo(apps, undefined)).toEqual(Either.right("https://mail.example.test/cb"))
    expect(Option.getOrUndefined(Either.getLeft(chooseReturnTo(apps, "https://mail.example.test/other/")))).toMatchObject({
      code: "return_to_not_registered"
    })
    expect(Either.isLeft(chooseReturnTo([application("notes", { callback_urls: [] })], undefined))).toBe(true)
  })

  it("in the fragment, as a URL-encoded JSON array of the tokens' fields", () => {
    const token = { app_id: "mail", slt: "slt_x", expires_in: 120, expires_at: "2026-11-01T10:02:00.000Z", request_id: "hof_1" }
    const url = new URL(withTokens("https://mail.example.test/cb?x=1#old", [token]))
    expect(url.origin + url.pathname + url.search).toBe("https://mail.example.test/cb?x=1")
    expect(url.hash.startsWith("#slts=")).toBe(true)
    expect(JSON.parse(decodeURIComponent(url.hash.slice("#slts=".length)))).toEqual([token])
  })
})
