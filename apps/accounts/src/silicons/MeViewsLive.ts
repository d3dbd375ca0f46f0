import { exactCache } from "@platform/database"
import { Effect, Layer, Option } from "effect"
import { isCarbonRow } from "../accounts/AccountRow.ts"
import { AccountsRepo } from "../accounts/AccountsRepo.ts"
import { type AccountMe, carbonMe } from "../accounts/Me.ts"
import { MeViews } from "../accounts/MeViews.ts"
import { AccountsConfig } from "../config.ts"
import { SIGNIN_VIEW_CACHE_CAPACITY, SIGNIN_VIEW_CHANNEL } from "../oauth/signinViewChannel.ts"
import { siliconMe } from "./SiliconMe.ts"
import { SiliconsRepo } from "./SiliconsRepo.ts"

/** Reads an account as it sees itself: a Carbon from its row, a Silicon with its custody; exactly cached (see exactCache). */
export const MeViewsLive = Layer.effect(
  MeViews,
  Effect.gen(function*() {
    const accounts = yield* AccountsRepo
    const silicons = yield* SiliconsRepo
    const { publicUrl } = yield* AccountsConfig

    // Every table read here (accounts, silicons) announces its changes on the sign-in view's channel.
    const find = yield* exactCache({
      channel: SIGNIN_VIEW_CHANNEL,
      capacity: SIGNIN_VIEW_CACHE_CAPACITY,
      load: (uuid: string): Effect.Effect<Option.Option<AccountMe>> =>
        Effect.flatMap(accounts.findByUuid(uuid), (found) => {
          if (Option.isNone(found)) return Effect.succeed(Option.none())
          if (isCarbonRow(found.value)) return Effect.succeed(Option.some(carbonMe(found.value, publicUrl)))
          return Effect.map(silicons.find(uuid), Option.map((row) => siliconMe(row, publicUrl)))
        })
    })

    const load = (uuid: string): Effect.Effect<AccountMe> =>
      Effect.flatMap(find(uuid), Option.match({
        onNone: () => Effect.dieMessage(`no account ${uuid}`),
        onSome: Effect.succeed
      }))

    return { find, load } as const
  })
).pipe(Layer.provide(Layer.mergeAll(AccountsRepo.Default, SiliconsRepo.Default)))
