import { SqlClient } from "@effect/sql"
import { randomHex } from "@platform/crypto"
import { Effect } from "effect"
import { AccountsRepo } from "../../src/accounts/AccountsRepo.ts"

/** A new active Carbon with a verified email, straight through the repository. */
export const createCarbon = (overrides: { readonly email?: string; readonly displayName?: string } = {}) =>
  Effect.gen(function*() {
    const accounts = yield* AccountsRepo
    const handle = `t${randomHex(10)}`
    return yield* Effect.orDie(accounts.createCarbon({
      id: `c:${handle}`,
      displayName: overrides.displayName ?? "Test Carbon",
      email: overrides.email ?? `${handle}@example.com`
    }))
  }).pipe(Effect.provide(AccountsRepo.Default))

/** A Silicon account row, straight into the database (creating Silicons is the Silicons issue's). */
export const insertSilicon = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const uuid = `S${randomHex(7)}`
  const now = new Date()
  yield* sql`
    INSERT INTO accounts (uuid, kind, handle, display_name, timezone, status, created_at, updated_at, version)
    VALUES (${uuid}, 'silicon', ${`s${randomHex(10)}`}, 'Test Silicon', 'UTC', 'active', ${now}, ${now}, 1)
  `.pipe(Effect.orDie)
  return uuid
})
