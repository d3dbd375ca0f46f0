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
