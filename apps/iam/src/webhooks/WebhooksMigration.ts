import { SqlClient } from "@effect/sql"
import { createDeliveriesTable } from "@platform/webhooks"
import { Effect } from "effect"
import { IamDeliveries } from "../events/deliveries.ts"

/**
 * IAM's webhooks: where each receiver's deliveries go (`iam_webhook_endpoints`: its URL, a Silicon
 * subscriber's organization and event types, a test webhook's testing_key), the versions of its signing
 * secret (sealed; a replaced version is accepted until `accepted_until`), the deliveries (the queue), each
 * attempt (kept 45 days) and each manual replay with its requester.
 */
export const WebhooksMigration = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create table iam_webhook_endpoints (
      receiver text primary key,
      url text not null,
      organization_id text,
      event_types jsonb,
      testing_key text,
      updated_by text,
      updated_at timestamptz not null
    )
  `
  yield* sql`create index iam_webhook_endpoints_by_organization on iam_webhook_endpoints (organization_id) where organization_id is not null`
  yield* sql`
    create table iam_webhook_keys (
      receiver text not null,
      version integer not null check (version > 0),
      sealed_secret text not null,
      created_at timestamptz not null,
      accepted_until timestamptz,
      primary key (receiver, version)
    )
  `
  yield* createDeliveriesTable(IamDeliveries)
  yield* sql`create index iam_webhook_deliveries_by_receiver on iam_webhook_deliveries (receiver, status, created_at)`
  yield* sql`
    create table iam_webhook_attempts (
      delivery_id uuid not null,
      attempt integer not null,
      attempted_at timestamptz not null,
      key_version integer,
      http_status integer,
      error text
    )
  `
  yield* sql`create index iam_webhook_attempts_by_delivery on iam_webhook_attempts (delivery_id, attempted_at)`
  yield* sql`create index iam_webhook_attempts_by_time on iam_webhook_attempts (attempted_at)`
  yield* sql`
    create table iam_webhook_replays (
      delivery_id uuid not null,
      requested_by text not null,
      requested_at timestamptz not null,
      position integer not null
    )
  `
  yield* sql`create index iam_webhook_replays_by_delivery on iam_webhook_replays (delivery_id)`
})
