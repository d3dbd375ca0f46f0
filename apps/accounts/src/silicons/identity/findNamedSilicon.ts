import { Effect, Either, Option } from "effect"
import { parseAccountId } from "../../accounts/AccountId.ts"
import type { SiliconRow } from "../SiliconRow.ts"
import { SiliconsRepo } from "../SiliconsRepo.ts"

/** The Silicon a text names: `si:<handle>` (any case) while it holds that id, or its uuid. */
export const findNamedSilicon = (text: string): Effect.Effect<Option.Option<SiliconRow>, never, SiliconsRepo> =>
  Effect.flatMap(SiliconsRepo, (silicons) => {
    if (!text.toLowerCase().startsWith("si:")) return silicons.find(text)
    return Either.match(parseAccountId(text), {
      onLeft: () => Effect.succeed(Option.none<SiliconRow>()),
      onRight: (id) => silicons.findByHandle(id.handle)
    })
  })
