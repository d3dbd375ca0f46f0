import { SqlClient } from "@effect/sql"
import { layer } from "@effect/vitest"
import { AnsweredDefect } from "@platform/http"
import { verifyIamWebhook } from "@platform/iam-webhook-verify"
import { type ReceivedRequest, webhookReceiver } from "@platform/testkit"
import { Cause, Clock, Duration, Effect, Exit, Layer, Logger, LogLevel, Option, type Scope, TestClock, TestContext } from "effect"
import { randomUUID } from "node:crypto"
import { expect } from "vitest"
import { ApplicationSessions } from "../src/application-sessions/ApplicationSessions.ts"
import { Applications } from "../src/applications/Applications.ts"
import type { ApplicationScope } from "../src/applications/scopes.ts"
import type { ApplicationEventType } from "../src/applications/webhookScope.ts"
import { IamEvents } from "../src/events/IamEvents.ts"
import type { IamEventType } from "../src/events/IamEventType.ts"
import { carbonIdentity } from "../src/identities/fromAccounts.ts"
import { OrganizationEvents } from "../src/organizations/OrganizationEvents.ts"
import { WebhookEndpoints } from "../src/webhooks/WebhookEndpoints.ts"
import { sweepWebhookHistory } from "../src/webhooks/history.ts"
import { RETRY_WAITS } from "../src/webhooks/iamWebhooks.ts"
import { makeIamWebhookWorker } from "../src/webhooks/WebhookWorker.ts"
import { MembersRepo } from "../src/organizations/MembersRepo.ts"
import { Organizations } from "../src/organizations/Organizations.ts"
import {
  ApplicationTestServices,
  leave,
  mintSlt,
  registerApplication,
  signedIn,
  signedInMember,
  someIdentity
} from "./support/applications.ts"
import { accountsHold, newCarbon } from "./support/carbons.ts"
import { iamClient, IamTest } from "./support/IamTest.ts"
import { stepUp } from "./support/stepUp.ts"

// IAM's signed webhooks end to end: fan-out at record time, the worker on the TestClock, a receiving
// application that checks every delivery with @platform/iam-webhook-verify. The projection table itself is
// in webhook-projection.test.ts.

const services = Layer.mergeAll(
  ApplicationTestServices,
  ApplicationSessions.Default,
  OrganizationEvents.Default,
  IamEvents.Default,
  WebhookEndpoints.Default,
  // The worker warns at every failed attempt; hundreds fail here on purpose.
  Logger.minimumLogLevel(LogLevel.Error)
)

/** A receiving application: a node:http server that verifies each delivery with the published helper at its own clock. */
const receivingApplication = Effect.gen(function*() {
  const receiver = yield* webhookReceiver
  const secrets = new Map<number, string>()
  let clock = Date.now()
  let status = 200
  const verdicts: Array<{ readonly ok: boolean; readonly answered: number; readonly keyVersion: number | null; readonly body: string }> = []
  receiver.answerWith((request: ReceivedRequest) => {
    const outcome = verifyIamWebhook({ headers: request.headers, rawBody: request.rawBody, secrets, now: clock })
    verdicts.push({
      ok: outcome.ok,
      answered: outcome.ok ? status : 401,
      keyVersion: outcome.ok ? outcome.keyVersion : null,
      body: request.rawBody.toString("utf8")
    })
    return { status: outcome.ok ? status : 401 }
  })
  return {
    url: receiver.url,
    secrets,
    verdicts,
    setClock: (millis: number) => (clock = millis),
    answer: (next: number) => (status = next),
    /** Bodies it verified and took (answered 200), parsed. */
    accepted: () =>
      verdicts.filter((verdict) => verdict.ok && verdict.answered === 200).map((verdict) => JSON.parse(verdict.body) as Record<string, any>)
  }
})

/** Moves the TestClock, and the receiving application's clock with it. */
const advance = (app: { readonly setClock: (millis: number) => void }, by: Duration.DurationInput) =>
  Effect.gen(function*() {
    yield* TestClock.adjust(by)
    app.setClock(yield* TestClock.currentTimeMillis)
  })

/** Worker passes until nothing is due now. */
const drain = (worker: { readonly runDue: Effect.Effect<number, unknown> }) =>
  Effect.gen(function*() {
    let total = 0
    for (;;) {
      const ran = yield* Effect.orDie(worker.runDue)
      if (ran === 0) return total
      total += ran
    }
  })

/** A Carbon accounts holds (with an email for step-up codes), signed in to IAM, as a typed client. */
const owningCarbon = (name: string) =>
  Effect.gen(function*() {
    const carbon = yield* accountsHold(newCarbon(name))
    const identity = carbonIdentity({ ...carbon, id: carbon.id ?? "" })
    const pair = yield* signedIn(identity)
    const client = yield* iamClient({ authorization: `Bearer ${pair.access_token}` })
    return { identity, email: carbon.verified_emails[0]!, pair, client }
  })

/** An application owned by `owner`, its webhook at `url` (its first secret answered once), consented by `member` for their organization. */
const subscribedApplication = (
  appId: string,
  owner: Effect.Effect.Success<ReturnType<typeof owningCarbon>>,
  url: string,
  consent: {
    readonly member: Effect.Effect.Success<ReturnType<typeof signedInMember>>
    readonly scopes: ReadonlyArray<ApplicationScope>
    readonly events: ReadonlyArray<ApplicationEventType>
  }
) =>
  Effect.gen(function*() {
    yield* registerApplication(appId, { ownerUuid: owner.identity.uuid, scopes: consent.scopes, webhookScope: consent.events })
    const webhook = yield* owner.client.applicationWebhooks.set({ path: { app_id: appId }, payload: { url } })
    const minted = yield* mintSlt(appId, consent.member, { scopes: ["identity", "self.profile.read", ...consent.scopes] })
    yield* (yield* ApplicationSessions).exchange(yield* (yield* Applications).existing(appId), minted.slt)
    return webhook
  })

const publish = (organizationId: string, type: IamEventType, data: Record<string, unknown>) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.flatMap(OrganizationEvents, (events) =>
      events.publish(organizationId, null, type, () => Effect.succeed({ changed: ["name"], current: {}, ...data })).pipe(
        sql.withTransaction,
        Effect.orDie
      )))

const deliveryRows = (receiver: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ id: string; event_id: string; status: string; attempts: number; manual_replays: number; key_version: number; body: string; next_attempt_at: Date | null }>`
      select id::text as id, event_id, status, attempts, manual_replays, key_version, body, next_attempt_at
      from iam_webhook_deliveries d where receiver = ${receiver}
      order by (select seq from iam_events e where e.id = d.event_id)
    `.pipe(Effect.orDie))

const onTestClock = <A, E, R>(effect: Effect.Effect<A, E, R | Scope.Scope>) =>
  Effect.gen(function*() {
    yield* TestClock.setTime(Date.now())
    return yield* effect
  }).pipe(Effect.scoped, Effect.provide(TestContext.TestContext))

layer(IamTest(), { excludeTestServices: true })("IAM webhooks", (it) => {
  it.effect("deliveries are signed and verified; tags need organization.tags.read; a member removal reaches an application authorized only before as a tombstone", () =>
    onTestClock(Effect.gen(function*() {
      const app = yield* receivingApplication
      const other = yield* receivingApplication
      const owner = yield* owningCarbon("webhookowner")
      const alice = yield* signedInMember("alice")
      const org = alice.orgIds[0]!
      const events: ReadonlyArray<ApplicationEventType> = [
        "organization.tag_created.v1",
        "organization.updated.v1",
        "organization.membership.removed.v1"
      ]
      const tagged = yield* subscribedApplication("tags-app", owner, app.url, {
        member: alice,
        scopes: ["self.organizations.read", "organization.tags.read"],
        events
      })
      const plain = yield* subscribedApplication("plain-app", owner, other.url, { member: alice, scopes: ["self.organizations.read"], events })
      expect(tagged.key_version).toBe(1)
      app.secrets.set(1, tagged.webhook_signing_secret!)
      other.secrets.set(1, plain.webhook_signing_secret!)

      yield* publish(org, "organization.tag_created.v1", { current: { resource: { tag: "vip" } }, changed: ["tags"] })
      yield* publish(org, "organization.updated.v1", { current: { organization: { id: org, name: "Renamed", tags: ["vip"] } } })
      yield* Effect.flatMap(SqlClient.SqlClient, (sql) => leave(alice, org).pipe(sql.withTransaction, Effect.orDie))

      const worker = yield* makeIamWebhookWorker()
      yield* drain(worker)
      expect([...app.verdicts, ...other.verdicts].map((verdict) => verdict.ok)).toEqual([true, true, true, true, true])
      const byApp = (appId: string) => Effect.map(deliveryRows(`app:${appId}`), (rows) => rows.map((row) => JSON.parse(row.body)))
      const taggedBodies = yield* byApp("tags-app")
      const plainBodies = yield* byApp("plain-app")
      expect(taggedBodies.map((body) => body.type)).toEqual(events)
      expect(taggedBodies[0].data.current.resource).toEqual({ tag: "vip" })
      expect(taggedBodies[1].data.current.organization.tags).toEqual(["vip"])
      // Without organization.tags.read: no tag event, and no tags in anything else.
      expect(plainBodies.map((body) => body.type)).toEqual(["organization.updated.v1", "organization.membership.removed.v1"])
      // The tag as a JSON string: a random event id may hold the letters "vip" (it did, 1 run in some thousands).
      expect(JSON.stringify(plainBodies)).not.toContain(`"vip"`)
      // alice was the only consenting member: after her removal each application gets only who left and at which version.
      for (const bodies of [taggedBodies, plainBodies]) {
        const removal = bodies[bodies.length - 1]
        expect(removal).toMatchObject({ type: "organization.membership.removed.v1", tombstone: { identity_uuids: [alice.identity.uuid] } })
        expect(removal.data).toBeUndefined()
        expect(removal.aggregate).toEqual({ type: "organization", id: org, version: expect.any(Number) })
      }
      expect(app.accepted()).toEqual(taggedBodies)
      expect(other.accepted()).toEqual(plainBodies)
    }).pipe(Effect.provide(services))))

  it.effect("a secret rotation mid-retry: queued deliveries keep their bytes and version, new ones use the new version; the old one is accepted for 24 hours", () =>
    onTestClock(Effect.gen(function*() {
      const app = yield* receivingApplication
      const owner = yield* owningCarbon("rotator")
      const bob = yield* signedInMember("bob")
      const org = bob.orgIds[0]!
      const first = yield* subscribedApplication("rotating-app", owner, app.url, {
        member: bob,
        scopes: ["self.organizations.read"],
        events: ["organization.updated.v1"]
      })
      app.secrets.set(1, first.webhook_signing_secret!)
      const worker = yield* makeIamWebhookWorker()
      app.answer(503)
      yield* publish(org, "organization.updated.v1", { current: { organization: { id: org, name: "Before" } } })
      yield* drain(worker)
      const [queued] = yield* deliveryRows("app:rotating-app")
      expect(queued).toMatchObject({ status: "pending", attempts: 1, key_version: 1 })

      // The step-up code is awaited in real time (the mailbox is polled).
      const token = yield* stepUp(owner.pair.access_token, owner.email, "application.webhook_secret.rotate", "rotating-app", "rotating-app")
        .pipe(Effect.withClock(Clock.make()))
      const successor = `whsec_${randomUUID()}${randomUUID()}`
      const steppedUp = yield* iamClient({ authorization: `Bearer ${owner.pair.access_token}`, "x-step-up-token": token.step_up_token })
      const rotation = yield* steppedUp.applicationWebhooks.rotateSecret({
        path: { app_id: "rotating-app" },
        payload: { webhook_secret: successor }
      })
      expect(rotation).toMatchObject({ key_version: 2, previous_key_version: 1 })
      app.secrets.set(2, successor)
      yield* publish(org, "organization.updated.v1", { current: { organization: { id: org, name: "After" } } })

      app.answer(200)
      yield* advance(app, Duration.seconds(10))
      yield* drain(worker)
      const rows = yield* deliveryRows("app:rotating-app")
      expect(rows.map((row) => [row.status, row.key_version])).toEqual([["delivered", 1], ["delivered", 2]])
      // One pass sends both at once: the order they arrive in is the network's.
      const verified = [...app.verdicts.slice(1)].sort((a, b) => a.keyVersion! - b.keyVersion!)
      expect([app.verdicts[0]!, ...verified].map((verdict) => [verdict.ok, verdict.answered, verdict.keyVersion])).toEqual([
        [true, 503, 1],
        [true, 200, 1],
        [true, 200, 2]
      ])
      // The first delivery's retry carried the very bytes its first attempt did.
      expect(verified[0]!.body).toBe(app.verdicts[0]!.body)
      expect(verified[0]!.body).toBe(queued!.body)

      const versionsAt = Effect.map((yield* WebhookEndpoints).route("app:rotating-app"), (route) =>
        route._tag === "Deliver" ? [...(route.versions?.keys() ?? [])] : [])
      yield* advance(app, Duration.hours(23))
      expect(yield* versionsAt).toEqual([1, 2])
      yield* advance(app, Duration.hours(1))
      expect(yield* versionsAt).toEqual([2])
    }).pipe(Effect.provide(services))))

  it.effect("dead letters after the schedule; 100 replayed in order under one Idempotency-Key, once; a worker that died holding claims loses nothing; attempts are kept 45 days", () =>
    onTestClock(Effect.gen(function*() {
      const app = yield* receivingApplication
      const owner = yield* owningCarbon("replayer")
      const carol = yield* signedInMember("carol")
      const org = carol.orgIds[0]!
      const webhook = yield* subscribedApplication("replay-app", owner, app.url, {
        member: carol,
        scopes: ["self.organizations.read"],
        events: ["organization.updated.v1"]
      })
      app.secrets.set(1, webhook.webhook_signing_secret!)
      app.answer(500)
      for (let index = 0; index < 100; index++) {
        yield* publish(org, "organization.updated.v1", { current: { organization: { id: org, name: `Name ${index}` } } })
      }
      const worker = yield* makeIamWebhookWorker({ batchSize: 100 })
      yield* drain(worker)
      for (const wait of RETRY_WAITS) {
        yield* advance(app, wait)
        yield* drain(worker)
      }
      const dead = yield* deliveryRows("app:replay-app")
      expect(dead.every((row) => row.status === "failed" && row.attempts === 8)).toBe(true)
      expect(app.verdicts.length).toBe(800)

      const firstPage = yield* owner.client.applicationWebhooks.deadLetters({ path: { app_id: "replay-app" }, urlParams: { limit: 60 } })
      const secondPage = yield* owner.client.applicationWebhooks.deadLetters({
        path: { app_id: "replay-app" },
        urlParams: { limit: 60, cursor: firstPage.next_cursor! }
      })
      expect(firstPage.items.length + secondPage.items.length).toBe(100)
      expect(secondPage.next_cursor).toBeNull()
      expect(firstPage.items[0]).toMatchObject({ cycle_attempt_count: 8, manual_replay_count: 0, last_error: "answered HTTP 500" })

      const replays = (key: string | undefined) =>
        owner.client.applicationWebhooks.replay({
          path: { app_id: "replay-app" },
          payload: { delivery_ids: dead.map((row) => row.id) },
          headers: key === undefined ? {} : { "idempotency-key": key }
        })
      const refused = yield* Effect.flip(replays(undefined))
      expect(refused).toMatchObject({ _tag: "IdempotencyKeyRequired" })
      const key = `replay-${randomUUID()}`
      const replayed = yield* replays(key)
      expect(replayed.replayed).toEqual(dead.map((row) => row.id))
      expect(yield* replays(key)).toEqual(replayed)
      const requeued = yield* deliveryRows("app:replay-app")
      expect(requeued.every((row) => row.status === "pending" && row.attempts === 0 && row.manual_replays === 1)).toBe(true)
      // Due in the order asked for, each with the event id it had.
      const dueOrder = [...requeued].sort((a, b) => a.next_attempt_at!.getTime() - b.next_attempt_at!.getTime()).map((row) => row.id)
      expect(dueOrder).toEqual(dead.map((row) => row.id))
      expect(requeued.map((row) => row.event_id)).toEqual(dead.map((row) => row.event_id))
      const recorded = yield* Effect.flatMap(SqlClient.SqlClient, (sql) =>
        sql<{ requested_by: string; count: number }>`
          select requested_by, count(*)::int as count from iam_webhook_replays group by requested_by
        `.pipe(Effect.orDie))
      expect(recorded).toEqual([{ requested_by: owner.identity.uuid, count: 100 }])

      // A worker claims the first 50 as the worker does, then its process dies: the claims stay until the lease ends.
      app.answer(200)
      const lease = 60_000
      yield* Effect.flatMap(SqlClient.SqlClient, (sql) =>
        Effect.flatMap(TestClock.currentTimeMillis, (at) =>
          sql`
            update iam_webhook_deliveries set claimed_until = ${new Date(at + lease)}, claim_token = ${randomUUID()}
            where id in ${sql.in(dueOrder.slice(0, 50))}
          `.pipe(Effect.orDie)))
      const survivor = yield* makeIamWebhookWorker({ batchSize: 10 })
      expect(yield* drain(survivor)).toBe(50)
      yield* advance(app, Duration.millis(lease))
      expect(yield* drain(survivor)).toBe(50)
      const delivered = yield* deliveryRows("app:replay-app")
      expect(delivered.every((row) => row.status === "delivered")).toBe(true)
      expect(new Set(app.accepted().map((body) => body.id))).toEqual(new Set(dead.map((row) => row.event_id)))

      // Attempt history: 900 attempts kept 45 days, then swept with the finished deliveries.
      const attempts = Effect.flatMap(SqlClient.SqlClient, (sql) =>
        sql<{ count: number }>`
          select count(*)::int as count from iam_webhook_attempts where delivery_id in ${sql.in(dueOrder)}
        `.pipe(Effect.map((rows) => rows[0]!.count), Effect.orDie))
      expect(yield* attempts).toBe(900)
      yield* advance(app, Duration.days(44))
      yield* sweepWebhookHistory
      expect(yield* attempts).toBe(900)
      yield* advance(app, Duration.days(2))
      yield* sweepWebhookHistory
      expect(yield* attempts).toBe(0)
      expect(yield* deliveryRows("app:replay-app")).toEqual([])
    }).pipe(Effect.provide(services))))

  it.effect("a Silicon subscriber gets the organization's events it subscribed to, sso.* included; a test webhook gets the test envelope with its own secret; removing the webhook dead-letters what was pending", () =>
    onTestClock(Effect.gen(function*() {
      const silicon = yield* receivingApplication
      const tester = yield* receivingApplication
      const admin = yield* owningCarbon("siliconadmin")
      const created = yield* (yield* Organizations).create(
        { uuid: admin.identity.uuid, id: admin.identity.id, kind: "carbon", sessionId: admin.pair.session_id },
        { name: "Robots" }
      )
      const org = created.organization.id
      const bot = someIdentity("bot", "silicon")
      const botPair = yield* signedIn(bot)
      yield* (yield* MembersRepo).add({ organizationId: org, identityUuid: bot.uuid, role: "member", addedBy: admin.identity.uuid, at: new Date() })
      const configure = (client: typeof admin.client) =>
        client.siliconWebhooks.configure({
          path: { organization_id: org, uuid: bot.uuid },
          payload: { url: silicon.url, event_types: ["sso.connection.activated.v1", "organization.updated.v1"] }
        })
      expect(yield* Effect.flip(configure(admin.client))).toMatchObject({ _tag: "StepUpRequired" })
      const token = yield* stepUp(admin.pair.access_token, admin.email, "organization.silicon_webhook.redirect", bot.uuid)
        .pipe(Effect.withClock(Clock.make()))
      const configured = yield* configure(
        yield* iamClient({ authorization: `Bearer ${admin.pair.access_token}`, "x-step-up-token": token.step_up_token })
      )
      expect(configured).toMatchObject({ key_version: 1, event_types: ["organization.updated.v1", "sso.connection.activated.v1"] })
      silicon.secrets.set(1, configured.webhook_signing_secret!)
      const types = yield* Effect.flatMap(SqlClient.SqlClient, (sql) =>
        sql<{ type: string }>`select type from iam_events where aggregate_id = ${org} order by aggregate_version`.pipe(Effect.orDie))
      expect(types.map((row) => row.type)).toContain("organization.silicon.webhook.configured.v1")
      expect(types.map((row) => row.type)).toContain("organization.silicon.webhook_subscription.updated.v1")

      // A test webhook of an application the admin consented to: fresh test-only secret, replayed to the same key.
      yield* registerApplication("testing-app", { ownerUuid: admin.identity.uuid, scopes: ["self.organizations.read"], webhookScope: ["organization.updated.v1"] })
      const minted = yield* mintSlt("testing-app", { identity: admin.identity, sessionId: admin.pair.session_id, orgIds: [org] }, {
        scopes: ["identity", "self.profile.read", "self.organizations.read"]
      })
      yield* (yield* ApplicationSessions).exchange(yield* (yield* Applications).existing("testing-app"), minted.slt)
      const key = `test-webhook-${randomUUID()}`
      const setTest = Effect.flatMap(
        iamClient({ authorization: `Bearer ${admin.pair.access_token}`, "idempotency-key": key }),
        (client) => client.applicationWebhooks.setTest({ path: { app_id: "testing-app" }, payload: { url: tester.url } })
      )
      const testWebhook = yield* setTest
      expect(testWebhook.webhook_signing_secret).toMatch(/^whsec_/)
      expect(yield* setTest).toEqual(testWebhook)
      tester.secrets.set(testWebhook.key_version, testWebhook.webhook_signing_secret!)

      yield* publish(org, "sso.connection.activated.v1", { current: { resource: { connection: "okta" } } })
      yield* publish(org, "organization.updated.v1", { current: { organization: { id: org, name: "Robots Inc" } } })
      yield* drain(yield* makeIamWebhookWorker())
      expect(silicon.accepted().map((body) => body.type).sort()).toEqual(["organization.updated.v1", "sso.connection.activated.v1"])
      const [test] = tester.accepted()
      expect(tester.accepted()).toHaveLength(1)
      expect(test).toEqual({
        test: {
          testing_key: testWebhook.testing_key,
          metadata: {
            event_id: expect.stringMatching(/^evt_/),
            type: "organization.updated.v1",
            occurred_at: expect.any(String),
            aggregate: { type: "organization", id: org, version: expect.any(Number) }
          },
          data: { changed: ["name"], current: { organization: { id: org, name: "Robots Inc" } } }
        }
      })

      // Removing the Silicon's webhook dead-letters what was still pending: the Silicon reads it, an outsider may not.
      yield* publish(org, "organization.updated.v1", { current: { organization: { id: org, name: "Robots Ltd" } } })
      yield* admin.client.siliconWebhooks.remove({ path: { organization_id: org, uuid: bot.uuid } })
      const botClient = yield* iamClient({ authorization: `Bearer ${botPair.access_token}` })
      const letters = yield* botClient.siliconWebhooks.deadLetters({ path: { silicon_id: bot.uuid }, urlParams: {} })
      expect(letters).toMatchObject({ items: [{ event_type: "organization.updated.v1", manual_replay_count: 0 }], next_cursor: null })
      const outsider = yield* owningCarbon("outsider")
      expect(yield* Effect.flip(outsider.client.siliconWebhooks.deadLetters({ path: { silicon_id: bot.uuid }, urlParams: {} })))
        .toMatchObject({ _tag: "SiliconSubscriberRequired" })
      const after = yield* Effect.flatMap(SqlClient.SqlClient, (sql) =>
        sql<{ type: string }>`select type from iam_events where aggregate_id = ${org} order by aggregate_version`.pipe(Effect.orDie))
      expect(after.map((row) => row.type).slice(-2)).toEqual([
        "organization.silicon.webhook_subscription.deleted.v1",
        "organization.silicon.webhook.deleted.v1"
      ])
    }).pipe(Effect.provide(services))))

  it.effect("a change whose projection would pass 1 MiB fails whole: nothing changed, no event, no delivery", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const dave = yield* signedInMember("dave")
      const org = dave.orgIds[0]!
      const before = yield* sql<{ name: string; version: number }>`select name, version from organizations where id = ${org}`.pipe(Effect.orDie)
      const exit = yield* Effect.gen(function*() {
        yield* sql`update organizations set name = 'Too big' where id = ${org}`
        yield* (yield* OrganizationEvents).publish(org, null, "organization.updated.v1", () =>
          Effect.succeed({ changed: ["description"], current: { organization: { id: org, description: "x".repeat(1024 * 1024) } } }))
      }).pipe(sql.withTransaction, Effect.exit)
      expect(Exit.isFailure(exit)).toBe(true)
      const defect = Exit.isFailure(exit) ? Option.getOrUndefined(Cause.dieOption(exit.cause)) : undefined
      expect(defect).toBeInstanceOf(AnsweredDefect)
      expect((defect as AnsweredDefect).error).toMatchObject({ code: "event_too_large", status: 413 })
      expect(yield* sql`select name, version from organizations where id = ${org}`.pipe(Effect.orDie)).toEqual(before)
      expect(yield* sql`select 1 from iam_events where aggregate_id = ${org} and type = 'organization.updated.v1'`.pipe(Effect.orDie))
        .toEqual([])
    }).pipe(Effect.provide(services)))
})
