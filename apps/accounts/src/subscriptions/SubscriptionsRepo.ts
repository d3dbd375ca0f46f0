import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { randomToken } from "@platform/crypto"
import { rowsDecoder, violatedConstraint } from "@platform/database"
import { Effect, Option, Schema } from "effect"
import { UpdateName } from "../events/updateNames.ts"
import { SubscriptionExists } from "./errors.ts"
import { type Subscription, SubscriptionKind, SubscriptionStatus, type Updates } from "./Subscription.ts"

const SubscriptionRow = Schema.Struct({
  id: Schema.String,
  app_id: Schema.String,
  kind: SubscriptionKind,
  all_updates: Schema.Boolean,
  updates: Schema.Array(UpdateName),
  status: SubscriptionStatus,
  created_at: Schema.DateFromSelf,
  updated_at: Schema.DateFromSelf
})
type SubscriptionRow = typeof SubscriptionRow.Type

const decodeRows = rowsDecoder(SubscriptionRow)
const COLUMNS = "id, app_id, kind, all_updates, updates, status, created_at, updated_at"

const subscriptionOf = (row: SubscriptionRow): Subscription => ({
  id: row.id,
  app_id: row.app_id,
  kind: row.kind,
  updates: row.all_updates ? "all" : row.updates,
  status: row.status,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString()
})

/** The stored form of a choice: named updates once each, in the spec's order, or all. */
const stored = (updates: Updates) =>
  updates === "all"
    ? { all: true, names: "[]" }
    : { all: false, names: JSON.stringify([...new Set(updates)]) }

/**
 * An app's event subscriptions (at most one per kind).
 *
 * Database failures: SqlError is a defect, except a second subscription of a kind (SubscriptionExists).
 */
export class SubscriptionsRepo extends Effect.Service<SubscriptionsRepo>()("accounts/SubscriptionsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.literal(COLUMNS)
    const decoded = (rows: Effect.Effect<ReadonlyArray<object>, SqlError>) =>
      rows.pipe(Effect.orDie, Effect.flatMap(decodeRows), Effect.map((found) => found.map(subscriptionOf)))

    const create = (input: {
      readonly appId: string
      readonly kind: SubscriptionKind
      readonly updates: Updates
      readonly status: typeof SubscriptionStatus.Type
      readonly at: Date
    }): Effect.Effect<Subscription, SubscriptionExists> => {
      const choice = stored(input.updates)
      // In a savepoint of its own: a refused insert must not abort an enclosing (idempotent request's) transaction.
      return sql.withTransaction(sql`
        INSERT INTO event_subscriptions (id, app_id, kind, all_updates, updates, status, created_at, updated_at)
        VALUES (${randomToken("sub_", 16)}, ${input.appId}, ${input.kind}, ${choice.all}, ${choice.names}::jsonb,
                ${input.status}, ${input.at}, ${input.at})
        RETURNING ${columns}
      `).pipe(
        Effect.catchTag("SqlError", (error) =>
          violatedConstraint(error) === "event_subscriptions_one_per_kind"
            ? Effect.fail(new SubscriptionExists({
              message: `This app has a ${input.kind} subscription already.`,
              hint: "Change it with PATCH, or delete it first."
            }))
            : Effect.die(error)),
        Effect.flatMap((rows) => decoded(Effect.succeed(rows))),
        Effect.map((rows) => rows[0]!)
      )
    }

    /** The app's subscriptions, webhook first. */
    const list = (appId: string): Effect.Effect<ReadonlyArray<Subscription>> =>
      decoded(sql`SELECT ${columns} FROM event_subscriptions WHERE app_id = ${appId} ORDER BY kind DESC`)

    const find = (appId: string, id: string): Effect.Effect<Option.Option<Subscription>> =>
      decoded(sql`SELECT ${columns} FROM event_subscriptions WHERE app_id = ${appId} AND id = ${id}`).pipe(
        Effect.map((rows) => Option.fromNullable(rows[0]))
      )

    /** Applies the changes given; none when the app has no such subscription. */
    const update = (
      appId: string,
      id: string,
      changes: { readonly updates?: Updates | undefined; readonly status?: typeof SubscriptionStatus.Type | undefined },
      at: Date
    ): Effect.Effect<Option.Option<Subscription>> => {
      const choice = changes.updates === undefined ? null : stored(changes.updates)
      return decoded(sql`
        UPDATE event_subscriptions SET
          all_updates = COALESCE(${choice?.all ?? null}, all_updates),
          updates = COALESCE(${choice?.names ?? null}::jsonb, updates),
          status = COALESCE(${changes.status ?? null}, status),
          updated_at = ${at}
        WHERE app_id = ${appId} AND id = ${id}
        RETURNING ${columns}
      `).pipe(Effect.map((rows) => Option.fromNullable(rows[0])))
    }

    /** False when the app has no such subscription. */
    const remove = (appId: string, id: string): Effect.Effect<boolean> =>
      sql`DELETE FROM event_subscriptions WHERE app_id = ${appId} AND id = ${id} RETURNING 1`.pipe(
        Effect.orDie,
        Effect.map((rows) => rows.length > 0)
      )

    return { create, list, find, update, remove } as const
  })
}) {}
