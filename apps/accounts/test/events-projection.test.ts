import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import { PROFILE_FIELDS, type ProfileField } from "../src/events/AccountEvent.ts"
import { eventDataFor } from "../src/events/eventData.ts"
import { choiceTakes, DEFAULT_UPDATES, updateNamesOf } from "../src/events/updateNames.ts"
import type { AppAccountRow } from "../src/oauth/AppAccountsRepo.ts"

const SCOPED = ["email", "phone", "dob", "timezone"] as const

const rowOf = (kind: "carbon" | "silicon"): AppAccountRow => ({
  uuid: "Ab3",
  kind,
  handle: "ada",
  display_name: "Ada",
  pfp_url: null,
  dob: "1990-01-01",
  timezone: "UTC",
  status: "active",
  created_at: new Date(0),
  updated_at: new Date(1000),
  version: 3,
  custodian_uuid: kind === "silicon" ? "Cu5" : null,
  custodian_handle: kind === "silicon" ? "carol" : null,
  email: kind === "carbon" ? "ada@example.com" : null,
  phone: null,
  membership_status: null,
  app_status: null,
  app_id_token_alg: null
})

const updated = (changed: ReadonlyArray<ProfileField>) => ({
  type: "account.updated" as const,
  changed,
  accountUuid: "Ab3",
  occurredAt: new Date(1000)
})

const NO_CONTEXT = { previousCustodianId: null, publicUrl: "https://accounts.test" }

describe("account.updated as each app sees it", () => {
  it("lists exactly the changed fields the app may see, shows only its scopes, and is nothing when none is visible", () =>
    FastCheck.assert(
      FastCheck.property(
        FastCheck.constantFrom("carbon" as const, "silicon" as const),
        FastCheck.subarray([...SCOPED]),
        FastCheck.subarray([...PROFILE_FIELDS], { minLength: 1 }),
        (kind, scopes, changed) => {
          const data = eventDataFor(updated(changed), rowOf(kind), { kind: "app", appId: "app1", scopes: ["profile", ...scopes] }, NO_CONTEXT)
          const visible = changed.filter((field) =>
            field === "display_name" || field === "pfp_url" || field === "custodian" ||
            ((field === "timezone" || field === "dob") && scopes.includes(field)) ||
            ((field === "email" || field === "phone") && kind === "carbon" && scopes.includes(field))
          )
          if (visible.length === 0) {
            expect(data).toBeUndefined()
            return
          }
          expect(data!["changed"]).toEqual(visible)
          const account = data!["account"] as Record<string, unknown>
          expect(account["membership_id"]).toBe("app1:Ab3")
          // No photo of its own: the default picture, on our origin.
          expect(account["pfp_url"]).toBe("https://accounts.test/v1/photos/default/Ab3")
          for (const scoped of SCOPED) {
            const shown = scopes.includes(scoped) && (kind === "carbon" || (scoped !== "email" && scoped !== "phone"))
            expect(scoped in account).toBe(shown)
          }
          expect("custodian" in account).toBe(kind === "silicon")
        }
      )
    ))

  it("the account itself sees every change of its own", () =>
    FastCheck.assert(
      FastCheck.property(FastCheck.subarray([...PROFILE_FIELDS], { minLength: 1 }), (changed) => {
        const data = eventDataFor(updated(changed), rowOf("carbon"), { kind: "account" }, NO_CONTEXT)
        expect(data).toMatchObject({ membership_id: null, changed })
      })
    ))

  it("an app without a subscription hears id, name, photo, access and deletion changes only", () => {
    expect(choiceTakes({ all: false, names: DEFAULT_UPDATES }, { type: "account.updated", changed: ["timezone", "pfp_url"] })).toBe(true)
    expect(choiceTakes({ all: false, names: DEFAULT_UPDATES }, { type: "account.updated", changed: ["timezone", "email"] })).toBe(false)
    expect(choiceTakes({ all: false, names: DEFAULT_UPDATES }, { type: "silicon.custodian.accepted" })).toBe(false)
    expect(choiceTakes({ all: true }, { type: "account.updated", changed: ["dob"] })).toBe(true)
    expect(updateNamesOf({ type: "membership.signed_out" })).toEqual(["access_removed"])
    expect(updateNamesOf({ type: "account.updated", changed: ["dob"] })).toEqual([])
  })
})
