import { Effect, Option } from "effect"
import { requireCarbon } from "../auth/requireCarbon.ts"
import { SiliconNotFound } from "./errors.ts"
import { findNamedSilicon } from "./identity/findNamedSilicon.ts"
import { SiliconsRepo } from "./SiliconsRepo.ts"

/**
 * The Silicon `{id}` (si: id or uuid) names, when the signed-in Carbon is its custodian; anyone
 * else learns nothing of it (404 silicon_not_found), and a Silicon caller is 403 carbon_only.
 */
export const namedSiliconInCustody = (id: string) =>
  Effect.gen(function*() {
    const carbon = yield* requireCarbon
    const silicons = yield* SiliconsRepo
    const named = yield* findNamedSilicon(id)
    const silicon = Option.isSome(named) ? yield* silicons.findInCustody(carbon.uuid, named.value.uuid) : named
    if (Option.isNone(silicon)) {
      return yield* new SiliconNotFound({ message: "No Silicon with this id is in your custody." })
    }
    return silicon.value
  })
