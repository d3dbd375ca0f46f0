import { Effect, Option } from "effect"
import type { SiliconRow } from "./SiliconRow.ts"
import { SiliconsRepo } from "./SiliconsRepo.ts"
import { CurrentAccount } from "../auth/CurrentAccount.ts"
import { SiliconOnly } from "../auth/errors.ts"

/**
 * The signed-in Silicon's record, for Silicon-only routes (spec 1, Account
 * management): a Carbon is 403 silicon_only. Use it behind `AccountAuth`.
 */
export const requireSilicon: Effect.Effect<SiliconRow, SiliconOnly, CurrentAccount | SiliconsRepo> = Effect.gen(
  function*() {
    const current = yield* CurrentAccount
    const silicons = yield* SiliconsRepo
    const silicon = yield* silicons.find(current.uuid)
    if (Option.isNone(silicon)) {
      return yield* new SiliconOnly({ message: "Only a Silicon (an agent's account) can use this route." })
    }
    return silicon.value
  }
)
