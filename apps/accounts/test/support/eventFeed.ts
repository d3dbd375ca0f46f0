import { SqlClient } from "@effect/sql"
import { randomHex } from "@platform/crypto"
import { Effect } from "effect"

export interface FeedEventInput {
  /** `app:<app_id>` or `account:<uuid>`, as the product writes it. */
  readonly receiver: string
  /** The account the event is about (account_events.account_uuid). */
  readonly accountUuid: string
  readonly type?: string
  /** Whether the stream subscription took it (default true). */
  readonly stream?: boolean
  readonly data?: Record<string, unknown>
}

/**
 * One event and its feed row for one receiver, written as the product writes them in the transaction of a
 * change (run it inside `sql.withTransaction` to hold that transaction open). Answers the envelope.
 */
export const insertFeedEvent = (input: FeedEventInput) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const sourceId = `evt_${randomHex(12)}`
    const eventId = `${sourceId}_${randomHex(4)}`
    const type = input.type ?? "ping"
    const occurredAt = new Date()
    const isApp = input.receiver.startsWith("app:")
    const envelope = {
      event_id: eventId,
      type,
      occurred_at: occurredAt.toISOString(),
      app_id: isApp ? input.receiver.slice(4) : null,
      silicon: isApp ? null : input.accountUuid,
      data: input.data ?? {}
    }
    yield* sql.withTransaction(Effect.gen(function*() {
      yield* sql`
        INSERT INTO account_events (id, type, account_uuid, occurred_at, data)
        VALUES (${sourceId}, ${type}, ${input.accountUuid}, ${occurredAt}, ${JSON.stringify(envelope.data)}::jsonb)
      `
      yield* sql`
        INSERT INTO event_feed (event_id, source_event_id, receiver, type, occurred_at, body, stream)
        VALUES (${eventId}, ${sourceId}, ${input.receiver}, ${type}, ${occurredAt}, ${JSON.stringify(envelope)}::jsonb,
                ${input.stream ?? true})
      `
    }))
    return envelope
  }).pipe(Effect.orDie)

/** Real time (the test clock may stand still). */
const realWait = Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 10)))

/**
 * Until every feed row is settled (below the server's oldest running transaction), waiting in real time.
 * On a shared PostgreSQL server another database's open transaction holds rows back for a while.
 */
export const untilSettled = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  for (;;) {
    const [row] = yield* sql<{ readonly held: boolean }>`
      SELECT EXISTS (SELECT 1 FROM event_feed WHERE txid >= pg_snapshot_xmin(pg_current_snapshot())) AS held
    `
    if (!row!.held) return
    yield* realWait
  }
}).pipe(Effect.orDie)
