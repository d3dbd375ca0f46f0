import { SqlClient } from "@effect/sql"
import { randomToken } from "@platform/crypto"
import { Effect } from "effect"
import { now } from "@platform/service"

export interface NewReport {
  readonly message: string
  readonly prUrl: string | undefined
  readonly accountUuid: string | undefined
}

/** Where problem reports are kept. A database failure is a defect (docs/architecture.md, "Database failures"). */
export class ReportsRepo extends Effect.Service<ReportsRepo>()("accounts/ReportsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const insert = (report: NewReport) =>
      Effect.gen(function*() {
        const id = randomToken("rep_", 16)
        const receivedAt = yield* now
        yield* sql`
          insert into reports (id, message, pr_url, account_uuid, created_at)
          values (${id}, ${report.message}, ${report.prUrl ?? null}, ${report.accountUuid ?? null}, ${receivedAt})
        `
        return { id, receivedAt }
      }).pipe(Effect.orDie, Effect.withSpan("ReportsRepo.insert"))
    return { insert } as const
  })
}) {}
