import { SqlClient } from "@effect/sql"
import { TestDatabase } from "@platform/database"
import { Effect, Layer, Schema, TestClock } from "effect"
import { AccountsRepo } from "../../src/accounts/AccountsRepo.ts"
import { ContactsRepo } from "../../src/accounts/ContactsRepo.ts"
import { IdsRepo } from "../../src/accounts/IdsRepo.ts"
import { accountsMigrations } from "../../src/migrations.ts"

/** The account repositories (accounts, ids, contacts) on their own fresh, migrated database (the SQL client stays visible to the test). */
export const AccountReposTest = () =>
  Layer.mergeAll(AccountsRepo.Default, IdsRepo.Default, ContactsRepo.Default).pipe(
    Layer.provideMerge(TestDatabase.layer(accountsMigrations))
  )

/** A realistic "now" for tests that run on TestClock (which starts at 1970). */
export const NOW = Date.parse("2026-11-01T12:00:00.000Z")
export const atNow = TestClock.setTime(NOW)

const Counter = Schema.Struct({ next_index: Schema.NumberFromString })

/** The next allocation number of the uuid counter. */
export const nextUuidIndex = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql`SELECT next_index::text AS next_index FROM account_uuid_allocator`.pipe(Effect.orDie)
  const [row] = yield* Schema.decodeUnknown(Schema.Array(Counter))(rows).pipe(Effect.orDie)
  return row!.next_index
})

/** Moves the uuid counter, as if `index` accounts had been created already. */
export const setNextUuidIndex = (index: number) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql`UPDATE account_uuid_allocator SET next_index = ${index}`.pipe(Effect.orDie))

/** Keeps `handle` for `accountUuid` until `until`, as an id change will. */
export const reserveHandle = (handle: string, accountUuid: string, until: Date) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql`
      INSERT INTO account_id_reservations (handle, account_uuid, reserved_until, created_at)
      VALUES (${handle}, ${accountUuid}, ${until}, ${new Date(until.getTime() - 10 * 86_400_000)})
    `.pipe(Effect.orDie))
