import { ValidationFailed } from "@platform/http"
import { compiledGroup, now } from "@platform/service"
import { Effect, Either, Layer } from "effect"
import { AccountsRepo } from "../accounts/AccountsRepo.ts"
import { AccountsApi } from "../api.ts"
import { AccountAuthLive } from "../auth/AccountAuth.ts"
import { AccountsConfig } from "../config.ts"
import { namedSiliconInCustody } from "../silicons/namedSiliconInCustody.ts"
import { outboundPolicy } from "../silicons/newSiliconInput.ts"
import { SiliconsRepo } from "../silicons/SiliconsRepo.ts"
import { federationOf } from "./Federation.ts"
import { FederationsRepo } from "./FederationsRepo.ts"
import { checkIssuerUrl } from "./issuerUrl.ts"

export const FederationsLive = compiledGroup(AccountsApi, "federations", (handlers) =>
  Effect.gen(function*() {
    const trusts = yield* FederationsRepo
    const silicons = yield* SiliconsRepo
    const policy = outboundPolicy(yield* AccountsConfig)

    const inCustody = (id: string) => namedSiliconInCustody(id).pipe(Effect.provideService(SiliconsRepo, silicons))

    return handlers
      .handle("list", ({ path }) =>
        Effect.gen(function*() {
          const silicon = yield* inCustody(path.id)
          const rows = yield* trusts.listLive(silicon.uuid)
          return { items: rows.map(federationOf), next_cursor: null }
        }))
      .handle("add", ({ path, payload }) =>
        Effect.gen(function*() {
          const silicon = yield* inCustody(path.id)
          const issuer = checkIssuerUrl(payload.issuer, policy)
          if (Either.isLeft(issuer)) {
            return yield* new ValidationFailed({
              message: "The issuer is not a URL we may fetch keys from.",
              details: { fields: { issuer: issuer.left } }
            })
          }
          return federationOf(yield* trusts.add(silicon.uuid, { ...payload, issuer: issuer.right }, yield* now))
        }))
      .handle("remove", ({ path }) =>
        Effect.gen(function*() {
          const silicon = yield* inCustody(path.id)
          yield* trusts.revoke(silicon.uuid, path.federation_id, yield* now)
        }))
  })).pipe(Layer.provide([FederationsRepo.Default, SiliconsRepo.Default, AccountsRepo.Default, AccountAuthLive]))
