import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { SigninsRepo } from "../../src/oauth/SigninsRepo.ts"
import { AccountsUnderTest } from "./AccountsUnderTest.ts"
import { createApp } from "./apps.ts"
import { fetchAnswer } from "./http.ts"

type MembershipStatus = "active" | "imported" | "access_removed"

/** A new app of which the account is a member with these scopes; a webhook URL unless `webhook` is false. */
export const memberApp = (
  accountUuid: string,
  options: { readonly scopes?: ReadonlyArray<string>; readonly status?: MembershipStatus; readonly webhook?: boolean } = {}
) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const app = yield* createApp()
    yield* sql`
      INSERT INTO memberships (app_id, account_uuid, status, scopes, created_at, last_signin_at)
      VALUES (${app.appId}, ${accountUuid}, ${options.status ?? "active"}, ${JSON.stringify(options.scopes ?? ["profile"])}::jsonb,
              now(), now())
    `
    if (options.webhook ?? true) {
      yield* sql`UPDATE apps SET webhook_url = 'https://hooks.example.test/in', webhook_secret = 'sealed' WHERE app_id = ${app.appId}`
    }
    return app
  }).pipe(Effect.orDie)

export const disableApp = (appId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql`UPDATE apps SET status = 'disabled' WHERE app_id = ${appId}`).pipe(Effect.orDie)

/** Creates a subscription for the app through its own credentials; the answer. */
export const subscribe = (app: { readonly appId: string; readonly secret: string }, body: unknown, headers: Record<string, string> = {}) =>
  Effect.flatMap(AccountsUnderTest, ({ url }) =>
    Effect.promise(() =>
      fetchAnswer(`${url}/v1/apps/${app.appId}/subscriptions`, {
        method: "POST",
        headers: { ...appBasic(app), "content-type": "application/json", ...headers },
        body: JSON.stringify(body)
      })
    ))

export const appBasic = (app: { readonly appId: string; readonly secret: string }) => ({
  authorization: `Basic ${Buffer.from(`${app.appId}:${app.secret}`).toString("base64")}`
})

/** A Silicon's own webhook URL, straight into the database. */
export const giveSiliconWebhook = (uuid: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql`UPDATE silicons SET webhook_url = 'https://silicon.example.test/in', webhook_secret = 'sealed' WHERE account_uuid = ${uuid}`)
    .pipe(Effect.orDie)

/** A live sign-in of the account to the app (as the token endpoint makes one); its id. */
export const appSignin = (appId: string, accountUuid: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const signins = yield* SigninsRepo
    const { signin } = yield* signins.start({ accountUuid, clientId: appId, clientLabel: null, method: "hosted", now: new Date() })
    yield* sql`INSERT INTO app_signins (signin_id, app_id, scope, auth_time) VALUES (${signin.id}, ${appId}, 'profile', now())`
    return signin.id
  }).pipe(Effect.orDie, Effect.provide(SigninsRepo.Default))

export interface FeedRow {
  readonly receiver: string
  readonly type: string
  readonly stream: boolean
  readonly body: {
    readonly event_id: string
    readonly type: string
    readonly occurred_at: string
    readonly app_id: string | null
    readonly silicon: string | null
    readonly data: Record<string, any>
  }
}

/** The event_feed rows about the account, oldest first. */
export const feedOf = (accountUuid: string, type?: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<FeedRow>`
      SELECT f.receiver, f.type, f.stream, f.body FROM event_feed f JOIN account_events e ON e.id = f.source_event_id
      WHERE e.account_uuid = ${accountUuid} ${type === undefined ? sql`` : sql`AND f.type = ${type}`}
      ORDER BY f.seq
    `).pipe(Effect.orDie)

export interface DeliveryRow {
  readonly id: string
  readonly event_id: string
  readonly event_type: string
  readonly receiver: string
  readonly body: string
  readonly manual_replays: number
}

/** The webhook deliveries to a receiver (`app:<id>`, `account:<uuid>`), oldest first. */
export const deliveriesTo = (receiver: string, type?: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<DeliveryRow>`
      SELECT id, event_id, event_type, receiver, body, manual_replays FROM webhook_deliveries
      WHERE receiver = ${receiver} ${type === undefined ? sql`` : sql`AND event_type = ${type}`}
      ORDER BY created_at, id
    `).pipe(Effect.orDie)

/** How many outbox rows of each kind exist about the account. */
export const eventCounts = (accountUuid: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ readonly events: number; readonly feed: number; readonly deliveries: number }>`
      SELECT (SELECT count(*)::int FROM account_events WHERE account_uuid = ${accountUuid}) AS events,
        (SELECT count(*)::int FROM event_feed f JOIN account_events e ON e.id = f.source_event_id
          WHERE e.account_uuid = ${accountUuid}) AS feed,
        (SELECT count(*)::int FROM webhook_deliveries d WHERE d.event_id IN (
          SELECT f.event_id FROM event_feed f JOIN account_events e ON e.id = f.source_event_id WHERE e.account_uuid = ${accountUuid}
        )) AS deliveries
    `).pipe(Effect.orDie, Effect.map((rows) => rows[0]!))

