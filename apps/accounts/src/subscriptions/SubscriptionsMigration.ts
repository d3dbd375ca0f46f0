import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * An app's event subscriptions: at most one per kind (`webhook`, `stream`). `updates` lists the
 * update names chosen; `all_updates` takes every update, later additions included. A paused one
 * takes nothing (the events it would have taken are not recorded for it).
 */
export const SubscriptionsMigration = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE event_subscriptions (
      id text PRIMARY KEY,
      app_id text NOT NULL REFERENCES apps (app_id),
      kind text NOT NULL CHECK (kind IN ('webhook', 'stream')),
      all_updates boolean NOT NULL,
      updates jsonb NOT NULL,
      status text NOT NULL CHECK (status IN ('active', 'paused')),
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      CONSTRAINT event_subscriptions_one_per_kind UNIQUE (app_id, kind)
    )
  `
})
