import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * The statements of deleting a Carbon that belong to no other area's repository. Every step runs
 * inside its caller's transaction and leaves SqlError to that caller.
 */
export class AccountDeletionRepo extends Effect.Service<AccountDeletionRepo>()("accounts/AccountDeletionRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /**
     * The Carbon becomes deleted and gives up its handle and photo; its emails, phones and linked
     * identities are removed so that they can serve a new account. The row stays (uuids are never
     * reused; history refers to it).
     */
    const endCarbon = (uuid: string, at: Date) =>
      Effect.gen(function*() {
        yield* sql`
          UPDATE accounts SET status = 'deleted', handle = NULL, pfp_url = NULL, updated_at = ${at}, version = version + 1
          WHERE uuid = ${uuid} AND kind = 'carbon'
        `
        yield* sql`DELETE FROM account_emails WHERE account_uuid = ${uuid}`
        yield* sql`DELETE FROM account_phones WHERE account_uuid = ${uuid}`
        yield* sql`DELETE FROM linked_identities WHERE account_uuid = ${uuid}`
        yield* sql`DELETE FROM account_photos WHERE account_uuid = ${uuid}`
      })

    /** The live Silicons in the Carbon's custody, locked. */
    const siliconsInCustody = (custodianUuid: string) =>
      Effect.map(
        sql<{ readonly uuid: string }>`
          SELECT a.uuid FROM silicons s JOIN accounts a ON a.uuid = s.account_uuid
          WHERE s.custodian_uuid = ${custodianUuid} AND a.status <> 'deleted'
          ORDER BY a.uuid
          FOR UPDATE OF a
        `,
        (rows) => rows.map((row) => row.uuid)
      )

    /** Pending requests naming the Carbon (by account, not by email) as the custodian to be, locked. */
    const requestsAddressedTo = (carbonUuid: string) =>
      sql<{ readonly id: string; readonly kind: "initial" | "transfer"; readonly silicon_uuid: string }>`
        SELECT id, kind, silicon_uuid FROM custodian_requests
        WHERE to_uuid = ${carbonUuid} AND status = 'pending'
        ORDER BY id
        FOR UPDATE
      `

    return { endCarbon, siliconsInCustody, requestsAddressedTo } as const
  })
}) {}
