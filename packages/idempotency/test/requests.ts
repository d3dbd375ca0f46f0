import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import type { KeptAnswer, RequestRef, RunOutcome } from "../src/IdempotencyStore.ts"

export const createApp: RequestRef = {
  scope: "credential-digest:POST /v1/apps",
  key: "5f0c7a1e-4d1b-4c8e-9f00-1a2b3c4d5e6f",
  fingerprint: "a".repeat(64)
}

export const sameKeyOtherBody: RequestRef = { ...createApp, fingerprint: "b".repeat(64) }

export const createdAnswer = (retention: KeptAnswer["retention"] = "standard"): KeptAnswer => ({
  status: 201,
  headers: { "content-type": "application/json", location: "/v1/apps/app_1" },
  body: new TextEncoder().encode(JSON.stringify({ id: "app_1", secret: "s3cr3t" })),
  retention
})

/** The request's own write: a row in `writes`, which commits or rolls back with its answer. */
export const recordWrite = (label: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql`INSERT INTO writes (label) VALUES (${label})`).pipe(Effect.orDie)

export const writesOf = (label: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ count: number }>`SELECT count(*)::integer AS count FROM writes WHERE label = ${label}`
  ).pipe(Effect.orDie, Effect.map((rows) => rows[0]?.count ?? 0))

/** A run that writes `label` and keeps `answer` (or nothing, like a 5xx). */
export const writeAndAnswer = (label: string, answer: Option.Option<KeptAnswer> = Option.some(createdAnswer())) =>
  Effect.as(recordWrite(label), { value: label, keep: answer } satisfies RunOutcome<string>)
