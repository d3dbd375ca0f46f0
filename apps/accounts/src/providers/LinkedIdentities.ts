import { SqlClient } from "@effect/sql"
import { rowsDecoder } from "@platform/database"
import { Effect, Option, Schema } from "effect"
import { ProviderName } from "./ProviderAnswer.ts"

/** One linked identity as its account sees it. */
export const LinkedIdentityRow = Schema.Struct({
  id: Schema.String,
  provider: ProviderName,
  email: Schema.NullOr(Schema.String),
  created_at: Schema.DateFromSelf,
  last_used_at: Schema.DateFromSelf
})
export type LinkedIdentityRow = typeof LinkedIdentityRow.Type

/** A keyset position in an account's identities: created_at (ISO) and id. */
export const LinkedIdentityPosition = Schema.Tuple(Schema.String, Schema.String)

const decodeRows = rowsDecoder(LinkedIdentityRow)
const decodeOwners = rowsDecoder(Schema.Struct({ id: Schema.String, account_uuid: Schema.String }))

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

    /** Who holds this identity, if anyone: the link's id and its account. */
    const ownerOf = (provider: ProviderName, subject: string) =>
      sql`SELECT id, account_uuid FROM linked_identities WHERE provider = ${provider} AND subject = ${subject}`.pipe(
        Effect.orDie,
        Effect.flatMap(decodeOwners),
        Effect.map((rows) => Option.fromNullable(rows[0]))
      )

    /** The account's identities, oldest first, `limit + 1` of them after `after`. */
    const list = (accountUuid: string, limit: number, after: Option.Option<typeof LinkedIdentityPosition.Type>) => {
      const position = Option.match(after, {
        onNone: () => sql``,
        onSome: ([createdAt, id]) => sql`AND (created_at, id) > (${new Date(createdAt)}, ${id})`
      })
      return sql`
        SELECT id, provider, email, created_at, last_used_at FROM linked_identities
        WHERE account_uuid = ${accountUuid} ${position}
        ORDER BY created_at, id
        LIMIT ${limit + 1}
      `.pipe(Effect.orDie, Effect.flatMap(decodeRows))
    }

    /** One of the account's identities, by its id. */
    const findOwn = (accountUuid: string, id: string) =>
      sql`
        SELECT id, provider, email, created_at, last_used_at FROM linked_identities
        WHERE account_uuid = ${accountUuid} AND id = ${id}
      `.pipe(Effect.orDie, Effect.flatMap(decodeRows), Effect.map((rows) => Option.fromNullable(rows[0])))

    /** Unlinks one of the account's identities; false when the account has none of this id. */
    const unlink = (accountUuid: string, id: string) =>
      sql`DELETE FROM linked_identities WHERE account_uuid = ${accountUuid} AND id = ${id} RETURNING 1`.pipe(
        Effect.orDie,
        Effect.map((rows) => rows.length > 0)
      )

    return { use, link, ownerOf, list, findOwn, unlink } as const
  })
}) {}
