import { Effect, Option, Schema } from "effect"
import { isCarbonRow } from "../accounts/AccountRow.ts"
import { AccountsRepo } from "../accounts/AccountsRepo.ts"
import { carbonMe, CarbonMe } from "../accounts/Me.ts"
import { SiliconMe, siliconMe } from "../silicons/SiliconMe.ts"
import { SiliconsRepo } from "../silicons/SiliconsRepo.ts"

/** The caller's own view of its account, either kind (spec 1, "Account (the caller's own view, Me)"). */
export const AccountMe = Schema.Union(CarbonMe, SiliconMe).annotations({ identifier: "AccountMe" })
export type AccountMe = typeof AccountMe.Type

/** Reads an account as it sees itself. */
export class MeViews extends Effect.Service<MeViews>()("accounts/MeViews", {
  effect: Effect.gen(function*() {
    const accounts = yield* AccountsRepo
    const silicons = yield* SiliconsRepo

    /** The account's own view; none for an unknown uuid. */
    const find = (uuid: string): Effect.Effect<Option.Option<AccountMe>> =>
      Effect.flatMap(accounts.findByUuid(uuid), (found) => {
        if (Option.isNone(found)) return Effect.succeed(Option.none())
        if (isCarbonRow(found.value)) return Effect.succeed(Option.some(carbonMe(found.value)))
        return Effect.map(silicons.find(uuid), Option.map(siliconMe))
      })

    /** For an account that must exist (a live sign-in names it): a missing one is a defect. */
    const load = (uuid: string): Effect.Effect<AccountMe> =>
      Effect.flatMap(find(uuid), Option.match({
        onNone: () => Effect.dieMessage(`no account ${uuid}`),
        onSome: Effect.succeed
      }))

    return { find, load } as const
  }),
  dependencies: [AccountsRepo.Default, SiliconsRepo.Default]
}) {}
