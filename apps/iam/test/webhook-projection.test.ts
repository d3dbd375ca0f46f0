import { describe, expect, it } from "vitest"
import { applicationsFrom } from "../src/events/recipients.ts"
import { departedIdentities, projectForApplication } from "../src/events/projection.ts"

// The recipient and projection rules of IAM's webhooks (decisions.md, "Webhooks"), pure.

const member = (uuid: string) => ({ organization_id: "org_1", identity: { uuid, id: `c:${uuid}` }, role: "member", tags: ["vip"] })
const recipient = (scopes: ReadonlyArray<string>, consenting: ReadonlyArray<string> = ["me"]) => ({
  scopes: new Set(scopes),
  consentingUuids: new Set(consenting)
})

describe("projectForApplication", () => {
  const membership = {
    type: "organization.membership.created.v1",
    data: { changed: ["status", "tags"], current: { members: [member("me"), member("other")] } }
  }

  it("shows every member with directory.*.read, only one's own with self.organizations.read, else nothing", () => {
    expect(projectForApplication(membership, recipient(["directory.*.read", "organization.tags.read"]))).toEqual(membership.data)
    expect(projectForApplication(membership, recipient(["self.organizations.read"]))).toEqual({
      changed: ["status"],
      current: { members: [{ organization_id: "org_1", identity: { uuid: "me", id: "c:me" }, role: "member" }] }
    })
    expect(projectForApplication(membership, recipient(["self.organizations.read"], ["someone"]))).toBeUndefined()
    expect(projectForApplication(membership, recipient(["identity", "self.profile.read"]))).toBeUndefined()
  })

  it("needs the type's scope: tags, trust, invitations, governance", () => {
    const cases = [
      ["organization.tag_created.v1", "organization.tags.read"],
      ["organization.trust.rule_created.v1", "organization.trust.read"],
      ["organization.invitation.created.v1", "organization.invitations.read"],
      ["organization.role_change.requested.v1", "organization.governance.read"],
      ["organization.tag_change.requested.v1", "organization.governance.read"],
      ["organization.approval.decided.v1", "organization.governance.read"]
    ] as const
    for (const [type, scope] of cases) {
      const event = { type, data: { changed: ["x"], current: { resource: { id: "r" } } } }
      expect(projectForApplication(event, recipient(["directory.*.read", "self.organizations.read"]))).toBeUndefined()
      expect(projectForApplication(event, recipient([scope]))).toEqual(event.data)
    }
  })

  it("never gives applications SSO, Silicon webhook or credential requests, nor credential data", () => {
    const all = recipient(["directory.*.read", "self.organizations.read"])
    for (const type of ["sso.connection.activated.v1", "organization.silicon.webhook.configured.v1", "organization.silicon.webhook_subscription.updated.v1", "organization.silicon.rotation_requested.v1"]) {
      expect(projectForApplication({ type, data: { changed: [], current: { members: [member("me")] } } }, all)).toBeUndefined()
    }
    const rotated = {
      type: "organization.silicon.credential_rotated.v1",
      data: { changed: ["credential"], current: { members: [member("me")] }, rotated_at: "2026-11-01T00:00:00.000Z" }
    }
    expect(projectForApplication(rotated, all)).toEqual({ changed: ["credential"], current: { members: [member("me")].map(({ tags: _, ...rest }) => rest) } })
  })

  it("keeps someone else's identity in previous_owner_uuid for the directory only", () => {
    const transfer = {
      type: "organization.ownership_transferred.v1",
      data: { changed: ["owner"], current: { organization: { id: "org_1" } }, previous_owner_uuid: "other" }
    }
    expect(projectForApplication(transfer, recipient(["self.organizations.read"]))).toEqual({ changed: ["owner"], current: { organization: { id: "org_1" } } })
    expect(projectForApplication(transfer, recipient(["directory.*.read"]))).toEqual(transfer.data)
  })
})

describe("recipients", () => {
  it("an application is authorized through active members' sessions, with their scopes' union within app_scope; only through a departed one, before only", () => {
    const session = (app_id: string, identity_uuid: string, scopes: ReadonlyArray<string>, active: boolean) => ({
      app_id,
      identity_uuid,
      scopes,
      app_scope: ["identity", "self.organizations.read", "organization.tags.read"],
      active
    })
    const [after, before] = applicationsFrom([
      session("a", "me", ["self.organizations.read"], true),
      session("a", "you", ["organization.tags.read", "directory.*.read"], true),
      session("b", "gone", ["self.organizations.read"], false)
    ])
    expect(after).toEqual({
      kind: "application",
      appId: "a",
      scopes: new Set(["self.organizations.read", "organization.tags.read"]),
      consentingUuids: new Set(["me", "you"]),
      authorizedAfter: true,
      departedUuids: []
    })
    expect(before).toMatchObject({ appId: "b", authorizedAfter: false, departedUuids: ["gone"] })
    expect(departedIdentities({ type: "organization.membership.removed.v1", data: { changed: [], current: { members: [member("gone")] } } }))
      .toEqual(["gone"])
    expect(departedIdentities({ type: "organization.membership.updated.v1", data: { changed: [], current: { members: [member("x")] } } }))
      .toEqual([])
  })
})
