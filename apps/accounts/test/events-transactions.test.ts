import { expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { TestDatabase } from "@platform/database"
import { Effect, Layer } from "effect"
import { AccountsRepo } from "../src/accounts/AccountsRepo.ts"
import { ContactsRepo } from "../src/accounts/ContactsRepo.ts"
import { removeAppAccess } from "../src/events/membershipChanges.ts"
import { reportingProfileChanges } from "../src/events/profileChanges.ts"
import { publishEvent } from "../src/events/publishEvent.ts"
import { AccountsConfigOf } from "../src/config.ts"
import { accountsMigrations } from "../src/migrations.ts"
import { testSettings } from "./support/AccountsUnderTest.ts"
import { createCarbon } from "./support/carbons.ts"
import { appSignin, deliveriesTo, eventCounts, feedOf, memberApp } from "./support/events.ts"
import { createSilicon } from "./support/silicons.ts"

const Services = Layer.mergeAll(AccountsRepo.Default, ContactsRepo.Default).pipe(
  Layer.provideMerge(TestDatabase.layer(accountsMigrations)),
  Layer.provideMerge(AccountsConfigOf(testSettings(4100)))
)

/** The public origin the account views in event data name. */
const PUBLIC_URL = testSettings(4100).publicUrl

class ChangeFailed {
  readonly _tag = "ChangeFailed"
}

layer(Services)("events in the transaction of their change", (it) => {
  it.effect("a change that fails after publishing leaves no event, feed row or delivery", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const events = { sql, publicUrl: PUBLIC_URL }
      const accounts = yield* AccountsRepo
      const carbon = yield* createCarbon()
      yield* memberApp(carbon.uuid)
      const failed = yield* reportingProfileChanges(
        events,
        carbon.uuid,
        Effect.zipRight(accounts.updateProfile(carbon.uuid, { displayName: "Never" }), Effect.fail(new ChangeFailed()))
      ).pipe(Effect.flip)
      expect(failed).toBeInstanceOf(ChangeFailed)
      const direct = yield* sql.withTransaction(Effect.zipRight(
        publishEvent(events, { type: "account.deleted", id: null, accountUuid: carbon.uuid, occurredAt: new Date() }),
        Effect.fail(new ChangeFailed())
      )).pipe(Effect.flip)
      expect(direct).toBeInstanceOf(ChangeFailed)
      expect(yield* eventCounts(carbon.uuid)).toEqual({ events: 0, feed: 0, deliveries: 0 })
      expect((yield* accounts.findByUuid(carbon.uuid)).pipe((row) => row._tag === "Some" && row.value.display_name)).toBe(
        "Test Carbon"
      )
    }))

  it.effect("a new primary email is email_change to apps granted email only", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const events = { sql, publicUrl: PUBLIC_URL }
      const contacts = yield* ContactsRepo
      const carbon = yield* createCarbon()
      const withEmail = yield* memberApp(carbon.uuid, { scopes: ["profile", "email"] })
      const without = yield* memberApp(carbon.uuid)
      yield* contacts.addContact({ accountUuid: carbon.uuid, channel: "email", address: "second@example.com", verified: true })
      yield* reportingProfileChanges(events, carbon.uuid, contacts.makePrimaryContact(carbon.uuid, "email", "second@example.com"))
      const feed = yield* feedOf(carbon.uuid, "account.updated")
      // email_change is not in the default set: recorded for no app without a subscription asking for it.
      expect(feed.map((row) => row.receiver)).toEqual([`account:${carbon.uuid}`])
      expect(feed[0]!.body.data).toMatchObject({ changed: ["email"], account: { email: "second@example.com" } })
      yield* sql`
        INSERT INTO event_subscriptions (id, app_id, kind, all_updates, updates, status, created_at, updated_at)
        VALUES ('sub_a', ${withEmail.appId}, 'webhook', false, '["email_change"]', 'active', now(), now()),
               ('sub_b', ${without.appId}, 'webhook', true, '[]', 'active', now(), now())
      `
      yield* reportingProfileChanges(events, carbon.uuid, contacts.makePrimaryContact(carbon.uuid, "email", `${carbon.handle}@example.com`))
      const [delivered] = yield* deliveriesTo(`app:${withEmail.appId}`)
      expect(JSON.parse(delivered!.body).data).toMatchObject({
        changed: ["email"],
        account: { email: `${carbon.handle}@example.com`, email_verified: true }
      })
      // An app of all updates that cannot see the email hears nothing of it.
      expect(yield* deliveriesTo(`app:${without.appId}`)).toHaveLength(0)
    }))

  it.effect("removing an app's access: membership.access_removed to it, its sign-ins end, then it hears nothing more", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const events = { sql, publicUrl: PUBLIC_URL }
      const accounts = yield* AccountsRepo
      const carbon = yield* createCarbon()
      const app = yield* memberApp(carbon.uuid)
      const signinId = yield* appSignin(app.appId, carbon.uuid)
      expect(yield* sql.withTransaction(removeAppAccess(events, { appId: app.appId, accountUuid: carbon.uuid, at: new Date() })))
        .toBe(true)
      expect(yield* sql.withTransaction(removeAppAccess(events, { appId: app.appId, accountUuid: carbon.uuid, at: new Date() })))
        .toBe(false)
      const [removed] = yield* deliveriesTo(`app:${app.appId}`)
      expect(JSON.parse(removed!.body)).toMatchObject({
        type: "membership.access_removed",
        app_id: app.appId,
        data: { uuid: carbon.uuid, membership_id: `${app.appId}:${carbon.uuid}` }
      })
      const [signin] = yield* sql<{ revoked_reason: string }>`SELECT revoked_reason FROM signins WHERE id = ${signinId}`
      expect(signin!.revoked_reason).toBe("access_removed")
      // Membership events are the app's alone.
      expect((yield* feedOf(carbon.uuid, "membership.access_removed")).map((row) => row.receiver)).toEqual([`app:${app.appId}`])
      yield* reportingProfileChanges(events, carbon.uuid, accounts.updateProfile(carbon.uuid, { displayName: "Later" }))
      expect(yield* deliveriesTo(`app:${app.appId}`)).toHaveLength(1)
    }))

  it.effect("a Silicon without a webhook is in the feed for its own stream, with no delivery", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const events = { sql, publicUrl: PUBLIC_URL }
      const { silicon } = yield* createSilicon()
      yield* sql.withTransaction(publishEvent(events, { type: "silicon.stk_rotated", accountUuid: silicon.uuid, occurredAt: new Date() }))
      const feed = yield* feedOf(silicon.uuid)
      expect(feed).toHaveLength(1)
      expect(feed[0]).toMatchObject({ receiver: `account:${silicon.uuid}`, stream: true, body: { silicon: silicon.uuid, app_id: null } })
      expect(yield* deliveriesTo(`account:${silicon.uuid}`)).toHaveLength(0)
    }))
})
