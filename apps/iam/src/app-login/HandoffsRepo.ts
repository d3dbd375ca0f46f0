import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export interface Handoff {
  readonly requestId: string
  readonly identityUuid: string
  readonly sessionId: string
  /** The bearer API (tokens answered to the caller) or the browser page (tokens sent to `returnTo`). */
  readonly via: "api" | "page"
  readonly appIds: ReadonlyArray<string>
  readonly returnTo: string | null
  readonly at: Date
}

/** One record per application login: who, from which session, for which applications, and where the tokens went. */
export class HandoffsRepo extends Effect.Service<HandoffsRepo>()("iam/HandoffsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return {
      insert: (handoff: Handoff) =>
        sql`
          insert into app_login_handoffs (request_id, identity_uuid, session_id, via, app_ids, return_to, created_at)
          values (${handoff.requestId}, ${handoff.identityUuid}, ${handoff.sessionId}, ${handoff.via},
            ${JSON.stringify(handoff.appIds)}::jsonb, ${handoff.returnTo}, ${handoff.at})
        `.pipe(Effect.asVoid, Effect.orDie)
    }
  })
}) {}
