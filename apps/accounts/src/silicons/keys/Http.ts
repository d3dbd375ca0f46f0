import { Effect, Layer, Option } from "effect"
import { AccountsApi } from "../../api.ts"
import { requireCarbon } from "../../auth/requireCarbon.ts"
import { requireSilicon } from "../requireSilicon.ts"
import { SiliconNotFound } from "../errors.ts"
import { SiliconsRepo } from "../SiliconsRepo.ts"
import { canonicalJwk } from "./PublicKeyJwk.ts"
import type { NewSiliconKey } from "./SiliconKey.ts"
import { siliconKey } from "./SiliconKey.ts"
import { SiliconKeys } from "./SiliconKeys.ts"
import { AccountsRepo } from "../../accounts/AccountsRepo.ts"
import { AccountAuthLive } from "../../auth/AccountAuth.ts"
import { compiledGroup } from "@platform/service"

export const SiliconKeysLive = compiledGroup(AccountsApi, "siliconKeys", (handlers) =>
  Effect.gen(function*() {
    const keys = yield* SiliconKeys
    const silicons = yield* SiliconsRepo

    const own = Effect.map(requireSilicon, (silicon) => silicon.uuid)
    const inCustody = (uuid: string) =>
      Effect.gen(function*() {
        const carbon = yield* requireCarbon
        const silicon = yield* silicons.findInCustody(carbon.uuid, uuid)
        if (Option.isNone(silicon)) {
          return yield* new SiliconNotFound({ message: "No Silicon with this uuid is in your custody." })
        }
        return silicon.value.uuid
      })

    const list = (siliconUuid: string) =>
      Effect.map(keys.listLive(siliconUuid), (rows) => ({ items: rows.map(siliconKey), next_cursor: null }))
    const add = (siliconUuid: string, payload: typeof NewSiliconKey.Type) =>
      Effect.map(keys.add(siliconUuid, payload.name, canonicalJwk(payload.public_key)), siliconKey)

    return handlers
      .handle("listOwn", () => Effect.flatMap(own, list))
      .handle("addOwn", ({ payload }) => Effect.flatMap(own, (uuid) => add(uuid, payload)))
      .handle("removeOwn", ({ path }) => Effect.flatMap(own, (uuid) => keys.revoke(uuid, path.key_id)))
      .handle("listInCustody", ({ path }) => Effect.flatMap(inCustody(path.uuid), list))
      .handle("addInCustody", ({ path, payload }) => Effect.flatMap(inCustody(path.uuid), (uuid) => add(uuid, payload)))
      .handle("removeInCustody", ({ path }) =>
        Effect.flatMap(inCustody(path.uuid), (uuid) => keys.revoke(uuid, path.key_id)))
  })).pipe(Layer.provide([AccountsRepo.Default, SiliconsRepo.Default, SiliconKeys.Default, AccountAuthLive]))
