import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import type { ProviderName } from "./ProviderAnswer.ts"

/**
 * Identities at external providers, each linked to exactly one account.
 *
 * Database failures: SqlError is a defect (no caller can act on one).
 */
export class LinkedIdentities extends Effect.Service<LinkedIdentities>()("accounts/LinkedIdentities", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /** The account this identity signs in, if it is linked; its use is recorded. */
    const use = (provider: ProviderName, subject: string, at: Date): Effect.Effect<Option.Option<string>> =>
      sql<{ readonly account_uuid: string }>`
        UPDATE linked_identities SET last_used_at = ${at}
        WHERE provider = ${provider} AND subject = ${subject}
        RETURNING account_uuid
      `.pipe(Effect.orDie, Effect.map((rows) => Option.fromNullable(rows[0]?.account_uuid)))

    /** Links the identity to the account; false when it is linked already (to any account). */
    const link = (provider: ProviderName, subject: string, accountUuid: string, email: string, at: Date) =>
      sql`
        INSERT INTO linked_identities (provider, subject, account_uuid, email, created_at, last_used_at)
        VALUES (${provider}, ${subject}, ${accountUuid}, ${email}, ${at}, ${at})
        ON CONFLICT (provider, subject) DO NOTHING
        RETURNING 1
      `.pipe(Effect.orDie, Effect.map((rows) => rows.length > 0))

    return { use, link } as const
  })
}) {}
