import { Effect, Option } from "effect"
import { type CarbonRow, isCarbonRow } from "../accounts/AccountRow.ts"
import { AccountsRepo } from "../accounts/AccountsRepo.ts"
import { CurrentAccount } from "./CurrentAccount.ts"
import { CarbonOnly } from "./errors.ts"

/**
 * The signed-in account's record, for Carbon-only routes (spec 1, Account
 * management): a Silicon is 403 carbon_only. Use it behind `AccountAuth`,
 * before the route does anything else.
 */
export const requireCarbon: Effect.Effect<CarbonRow, CarbonOnly, CurrentAccount | AccountsRepo> = Effect.gen(
  function*() {
    const current = yield* CurrentAccount
    const accounts = yield* AccountsRepo
    const account = yield* accounts.findByUuid(current.uuid)
    // Sign-ins are made for existing accounts, and accounts are never deleted from the table.
    if (Option.isNone(account)) return yield* Effect.dieMessage(`the sign-in ${current.signinId} names no account`)
    if (!isCarbonRow(account.value)) {
      return yield* new CarbonOnly({ message: "Only a Carbon (a person's account) can use this route." })
    }
    return account.value
  }
)
